/**
 * An OBJ + MTL + textures ZIP into a GLB the browser loads in one Range-served file. The archive
 * is checked with the processing import's yauzl limits (entries, unpacked bytes, no links, no
 * `..`); only the model's own files are unpacked; `obj2gltf` runs in a child process with a
 * heap ceiling (`--max-old-space-size`) and a time limit, like GDAL's children, so a hostile or
 * merely huge OBJ (1.5 million vertices) neither hangs nor grows the server.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { extractTo, openZip, readDirectory } from '#app/domain/processing/archive-reader.server.ts'
import { parentDeathPrefix } from '#app/lib/process/parent-death.server.ts'

const MODEL_ZIP_LIMITS = { maxEntries: 2000, maxUnzippedBytes: 4 * 1024 * 1024 * 1024 }
const MODEL_PARTS = /\.(obj|mtl|png|jpe?g)$/i
const CONVERT_TIMEOUT_MS = 20 * 60 * 1000
/**
 * The converter's JavaScript heap at most (its own process: the server's heap is not touched).
 * The machine has 512 MB (fly.toml) and the server uses about 200: a bigger model is refused
 * with the figure rather than pushing the server into swap.
 */
const CONVERTER_HEAP_MB = 288

export class ModelCopyError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelCopyError'
  }
}

// The converter runs from a string (the server bundle holds no script file); `secure` keeps it inside the folder.
const CONVERTER_SOURCE = `
const fs = require('node:fs')
const obj2gltf = require('obj2gltf')
obj2gltf(process.env.KESTREL_OBJ, { binary: true, secure: true, checkTransparency: false })
  .then((glb) => fs.writeFileSync(process.env.KESTREL_GLB, glb))
  .catch((error) => {
    process.stderr.write('KESTREL_CONVERT_ERROR ' + String((error && error.message) || error).slice(0, 300))
    process.exit(2)
  })
`

export interface ConvertLimits {
  signal?: AbortSignal
  timeoutMs?: number
  /** The child's heap ceiling in MB. */
  heapMb?: number
}

const durationText = (ms: number) =>
  ms >= 60_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} s`

/** Runs obj2gltf on `obj` in a child process, writing the GLB to `out`. */
function runConverter(
  obj: string,
  out: string,
  { signal, timeoutMs = CONVERT_TIMEOUT_MS, heapMb = CONVERTER_HEAP_MB }: ConvertLimits,
) {
  const [command, ...prefix] = [...parentDeathPrefix(), process.execPath]
  const args = [...prefix, `--max-old-space-size=${heapMb}`, '-e', CONVERTER_SOURCE]
  // obj2gltf resolves from the app's folder; the child sees only what it needs.
  const env = { PATH: process.env.PATH, NODE_ENV: process.env.NODE_ENV, KESTREL_OBJ: obj, KESTREL_GLB: out }
  return new Promise<void>((resolve, reject) => {
    execFile(
      command!,
      args,
      { cwd: process.cwd(), env, timeout: timeoutMs, killSignal: 'SIGKILL', signal, maxBuffer: 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (!error) return resolve()
        if (signal?.aborted) return reject(new ModelCopyError('Cancelled'))
        if (error.killed || error.signal === 'SIGKILL')
          return reject(new ModelCopyError(`The OBJ took longer than ${durationText(timeoutMs)} to convert`))
        if (/heap out of memory|Allocation failed/i.test(stderr))
          return reject(new ModelCopyError(`The OBJ needs more than ${heapMb} MB to convert`))
        const said = /KESTREL_CONVERT_ERROR (.*)/.exec(stderr)?.[1]
        reject(
          new ModelCopyError(
            `The OBJ cannot be converted: ${said ?? `the converter stopped (${error.code ?? error.signal})`}`,
          ),
        )
      },
    )
  })
}

/** The ZIP's OBJ (with its MTL and textures) as a GLB at `out`. */
export async function objZipToGlb(zipPath: string, out: string, limits: ConvertLimits = {}) {
  const { signal } = limits
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
    await fs.promises.rm(out, { force: true })
    await runConverter(obj, out, limits)
    return { bytes: (await fs.promises.stat(out)).size }
  } finally {
    zip.close()
    await fs.promises.rm(work, { recursive: true, force: true })
  }
}
