/**
 * An OBJ + MTL + textures ZIP into a GLB the browser loads in one Range-served file. The archive
 * is checked with the processing import's yauzl limits (entries, unpacked bytes, no links, no
 * `..`); only the model's own files are unpacked; `obj2gltf` runs in a worker thread with a
 * memory ceiling and a time limit, so a hostile OBJ cannot hang or swamp the server.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { extractTo, openZip, readDirectory } from '#app/domain/processing/archive-reader.server.ts'

const MODEL_ZIP_LIMITS = { maxEntries: 2000, maxUnzippedBytes: 4 * 1024 * 1024 * 1024 }
const MODEL_PARTS = /\.(obj|mtl|png|jpe?g)$/i
const CONVERT_TIMEOUT_MS = 20 * 60 * 1000
const WORKER_MEMORY_MB = 1536

export class ModelCopyError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelCopyError'
  }
}

// The converter runs from a string (the server bundle holds no worker file); `secure` keeps it inside the folder.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const obj2gltf = require('obj2gltf')
obj2gltf(workerData.obj, { binary: true, secure: true, checkTransparency: false })
  .then((glb) => parentPort.postMessage(glb))
  .catch((error) => parentPort.postMessage({ error: String(error && error.message || error) }))
`

function runConverter(obj: string, signal?: AbortSignal, timeoutMs = CONVERT_TIMEOUT_MS) {
  return new Promise<Buffer>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { obj },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB },
      stdout: true,
      stderr: true,
    })
    let settled = false
    const end = (error: Error | null, glb?: Buffer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      void worker.terminate()
      if (error) reject(error)
      else resolve(glb!)
    }
    const timer = setTimeout(
      () => end(new ModelCopyError(`The OBJ took longer than ${timeoutMs / 60_000} minutes to convert`)),
      timeoutMs,
    )
    const onAbort = () => end(new ModelCopyError('Cancelled'))
    signal?.addEventListener('abort', onAbort, { once: true })
    worker.on('message', (message: Uint8Array | { error: string }) => {
      if ('error' in message) end(new ModelCopyError(`The OBJ cannot be converted: ${message.error}`))
      else end(null, Buffer.from(message))
    })
    worker.on('error', (error) => end(new ModelCopyError(`The OBJ cannot be converted: ${error.message}`)))
    worker.on('exit', (code) => end(new ModelCopyError(`The converter stopped (code ${code})`)))
  })
}

/** The ZIP's OBJ (with its MTL and textures) as a GLB at `out`. */
export async function objZipToGlb(
  zipPath: string,
  out: string,
  { signal, timeoutMs }: { signal?: AbortSignal; timeoutMs?: number } = {},
) {
  const zip = await openZip(zipPath, 'The model ZIP')
  const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'kestrel-obj-'))
  try {
    const entries = await readDirectory(zip, MODEL_ZIP_LIMITS, 'The model ZIP')
    const parts = entries.filter((e) => !e.fileName.endsWith('/') && MODEL_PARTS.test(e.fileName))
    const objs = parts.filter((e) => /\.obj$/i.test(e.fileName))
    if (objs.length !== 1)
      throw new ModelCopyError(
        objs.length ? 'The model ZIP holds more than one OBJ' : 'The model ZIP holds no OBJ',
      )
    // The OBJ's folder is the root: its MTL and textures are named relative to it.
    const base = path.posix.dirname(objs[0]!.fileName)
    const prefix = base === '.' ? '' : `${base}/`
    let obj = ''
    for (const entry of parts) {
      if (!entry.fileName.startsWith(prefix)) continue
      signal?.throwIfAborted()
      const written = await extractTo(zip, entry, work, entry.fileName.slice(prefix.length))
      if (entry === objs[0]) obj = written
    }
    const glb = await runConverter(obj, signal, timeoutMs)
    await fs.promises.writeFile(out, glb)
    return { bytes: glb.length }
  } finally {
    zip.close()
    await fs.promises.rm(work, { recursive: true, force: true })
  }
}
