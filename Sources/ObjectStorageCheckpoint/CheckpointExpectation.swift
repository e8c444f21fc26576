//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension DownloadCheckpoint {
    /// What a download checkpoint must match to be resumed: the current request and a fresh probe.
    /// The part size and temp file are taken from the checkpoint.
    package struct Expectation: Hashable, Sendable {
        /// The current request's identity.
        package var identity: Identity
        /// The object as probed just now.
        package var object: ObjectState

        /// Creates an expectation.
        ///
        /// - Parameters:
        ///   - identity: The current request's identity.
        ///   - object: The object as probed just now.
        package init(identity: Identity, object: ObjectState) {
            self.identity = identity
            self.object = object
        }
    }
}

extension UploadCheckpoint {
    /// What an upload checkpoint must match to be resumed: the current request, the source file as
    /// it is now, and the same object parameters. The part size is taken from the checkpoint.
    package struct Expectation: Hashable, Sendable {
        /// The current request's identity.
        package var identity: Identity
        /// The source file's identity now; `nil` to `stat` ``Identity/sourcePath`` during the load.
        package var source: FileIdentity?
        /// The current request's object parameters.
        package var parameters: ObjectParameters
        /// For a server-side copy, the source object as it is now; a checkpoint of another one is discarded.
        package var copySource: CopySource?

        /// Creates an expectation.
        ///
        /// - Parameters:
        ///   - identity: The current request's identity.
        ///   - source: The source's identity now, or `nil` to `stat` it during the load.
        ///   - parameters: The current request's object parameters.
        ///   - copySource: For a server-side copy, the source object now.
        package init(
            identity: Identity,
            source: FileIdentity? = nil,
            parameters: ObjectParameters = ObjectParameters(),
            copySource: CopySource? = nil
        ) {
            self.identity = identity
            self.source = source
            self.parameters = parameters
            self.copySource = copySource
        }
    }
}
