/**
 * A finished temporary file (an export GDAL wrote) as a web stream that reads only as fast as
 * its reader takes it, and removes its folder once read to the end, cancelled or failed.
 */
import fs from 'node:fs'

export function tempFileStream(file: string, folder: string): ReadableStream<Uint8Array> {
  const source = fs.createReadStream(file, { highWaterMark: 64 * 1024 })
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  let removed = false
  const remove = () => {
    if (removed) return
    removed = true
    source.destroy()
    void fs.promises.rm(folder, { recursive: true, force: true })
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const chunk = await chunks.next()
          if (chunk.done) {
            remove()
            controller.close()
          } else
            controller.enqueue(new Uint8Array(chunk.value.buffer, chunk.value.byteOffset, chunk.value.length))
        } catch (error) {
          remove()
          controller.error(error)
        }
      },
      cancel: remove,
    },
    // Nothing read ahead: a chunk is read when the reader asks for it.
    { highWaterMark: 0 },
  )
}
