//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore

/// Lets each connection read up to ``maximum`` bytes per socket read (NIO's default stops at 64 KiB), so a large
/// upload arrives in fewer, larger buffers: fewer reads, fewer body parts through the pipeline, fewer task
/// wake-ups. The allocator still adapts down for small requests. Not larger: the request body stream queues up to
/// ten buffers per connection while the handler hashes, so larger reads raise the peak memory of parallel uploads
/// (measurements in docs/BENCHMARKS.md).
final class ReceiveBufferSizing: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    static let maximum = 256 * 1024

    func handlerAdded(context: ChannelHandlerContext) {
        let allocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 64 * 1024, maximum: Self.maximum)
        try? context.channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: allocator)
    }
}
