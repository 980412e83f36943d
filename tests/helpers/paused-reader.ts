/** A client that reads a response until it has `bytes`, then stops reading (as a stalled download does). */
import type http from 'node:http'

/** Reads `res` until at least `bytes` have come, then pauses it; resolves with the bytes read. */
export function readThenPause(res: http.IncomingMessage, bytes: number) {
  let read = 0
  return new Promise<number>((resolve) => {
    res.on('data', (chunk: Buffer) => {
      read += chunk.length
      if (read >= bytes) {
        res.pause()
        resolve(read)
      }
    })
  })
}
