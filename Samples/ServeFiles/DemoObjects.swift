//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Hummingbird
import ObjectStorage

/// Uploads the demo objects below `prefix`: a text file, a 300 KiB binary file and a 20-minute tone.
///
/// - Returns: Their keys below the prefix.
func uploadDemoObjects(_ client: ObjectStorageClient, bucket: String, prefix: String) async throws -> [String] {
    var text = PutObjectRequest(
        bucket: bucket,
        key: prefix + "hello.txt",
        body: .bytes(ByteBuffer(string: "Hello from the bucket! Ask for bytes 10-19 with a Range header.\n"))
    )
    text.attributes.contentType = "text/plain; charset=utf-8"
    try await client.putObject(text)
    // Bytes 0, 1, ... 255, 0, 1...: any range of it is easy to check.
    let pattern = (0..<(300 << 10)).map { UInt8(truncatingIfNeeded: $0) }
    var binary = PutObjectRequest(bucket: bucket, key: prefix + "demo.bin", body: .bytes(ByteBuffer(bytes: pattern)))
    binary.attributes.contentType = "application/octet-stream"
    try await client.putObject(binary)
    var tone = PutObjectRequest(bucket: bucket, key: prefix + "tone.wav", body: .bytes(Tone.wav(minutes: 20)))
    tone.attributes.contentType = "audio/wav"
    try await client.putObject(tone)
    return ["hello.txt", "demo.bin", "tone.wav"]
}

/// A 440 Hz tone as a WAV file: 8 kHz, 8-bit, mono (8,000 bytes a second), so that a seek lands far beyond what a
/// player buffers ahead and sends a range request.
enum Tone {
    static let sampleRate = 8_000

    static func wav(minutes: Int) -> ByteBuffer {
        let samples = minutes * 60 * Self.sampleRate
        var buffer = ByteBuffer()
        buffer.reserveCapacity(44 + samples)
        buffer.writeString("RIFF")
        buffer.writeInteger(UInt32(36 + samples), endianness: .little)
        buffer.writeString("WAVEfmt ")
        buffer.writeInteger(UInt32(16), endianness: .little)  // the format chunk's size
        buffer.writeInteger(UInt16(1), endianness: .little)  // PCM
        buffer.writeInteger(UInt16(1), endianness: .little)  // mono
        buffer.writeInteger(UInt32(Self.sampleRate), endianness: .little)
        buffer.writeInteger(UInt32(Self.sampleRate), endianness: .little)  // bytes per second
        buffer.writeInteger(UInt16(1), endianness: .little)  // bytes per frame
        buffer.writeInteger(UInt16(8), endianness: .little)  // bits per sample
        buffer.writeString("data")
        buffer.writeInteger(UInt32(samples), endianness: .little)
        // One period of the tone, repeated.
        let period = (0..<Self.sampleRate).map { index in
            UInt8(128 + 60 * sin(2 * Double.pi * 440 * Double(index) / Double(Self.sampleRate)))
        }
        for _ in 0..<(samples / Self.sampleRate) {
            buffer.writeBytes(period)
        }
        return buffer
    }
}

/// `GET /`: a page whose player plays the tone from the bucket; seeking sends range requests.
enum PlayerPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><title>ServeFilesSample</title></head>
        <body>
        <h1>Served from the bucket</h1>
        <video id="player" controls preload="metadata" src="/files/tone.wav"></video>
        <p><a href="/files/hello.txt">hello.txt</a> · <a href="/files/demo.bin">demo.bin</a></p>
        </body>
        </html>
        """

    static var response: Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: Self.html))
        )
    }
}

/// `--log-requests`: one line per request on standard error, `METHOD PATH range=RANGE status=STATUS`, which
/// Scripts/interop-browser reads to see the player's range requests.
struct RequestLog<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response = try await next(request, context)
        let range = request.headers[.range] ?? "-"
        FileHandle.standardError.write(
            Data("\(request.method) \(request.uri.path) range=\(range) status=\(response.status.code)\n".utf8)
        )
        return response
    }
}
