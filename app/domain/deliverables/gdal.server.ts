/**
 * Running GDAL's command-line tools as child processes (ADR 231): an argument array (no
 * shell), a time limit, GDAL's block cache bounded with GDAL_CACHEMAX, no `.aux.xml`
 * side files, and the `0...10...20` progress on stdout turned into percentages. The
 * server's own memory stays small whatever the raster's size: GDAL does the reading.
 */
import { execFile } from 'node:child_process'
import { getEnv } from '#app/domain/config/env.server.ts'

/** A GDAL run that failed: the tool's own words (stderr), trimmed for an admin to read. */
export class GdalError extends Error {
  constructor(
    message: string,
    readonly aborted = false,
  ) {
    super(message)
    this.name = 'GdalError'
  }
}

export interface GdalRunOptions {
  timeoutMs?: number
  signal?: AbortSignal
  /** Called with 0–100 as GDAL prints its progress. */
  onProgress?: (percent: number) => void
}

function gdalEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GDAL_CACHEMAX: String(getEnv().GDAL_CACHEMAX_MB),
    GDAL_PAM_ENABLED: 'NO',
    GDAL_NUM_THREADS: '1',
    CPL_DEBUG: 'OFF',
  }
}

/** The last lines GDAL wrote to stderr, as one short sentence (the column holds 500 characters). */
function gdalMessage(tool: string, stderr: string, fallback: string) {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('Warning'))
  const text = (lines.slice(-2).join(' ') || fallback).replace(/\s+/g, ' ')
  return `${tool}: ${text}`.slice(0, 480)
}

/** Runs one GDAL tool; resolves with stdout, rejects with a GdalError carrying stderr. */
export function runGdal(tool: string, args: string[], options: GdalRunOptions = {}): Promise<string> {
  const { timeoutMs = 60_000, signal, onProgress } = options
  return new Promise((resolve, reject) => {
    const child = execFile(
      tool,
      args,
      { env: gdalEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, signal, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout)
        if (signal?.aborted) return reject(new GdalError(`${tool}: stopped`, true))
        if (error.killed || error.signal === 'SIGKILL')
          return reject(
            new GdalError(`${tool}: took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`),
          )
        if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          return reject(new GdalError(`${tool}: GDAL is not installed on the server`))
        reject(new GdalError(gdalMessage(tool, stderr, error.message)))
      },
    )
    if (onProgress) {
      let last = -1
      child.stdout?.on('data', (chunk: Buffer) => {
        // GDAL prints "0...10...20...30" (dots in between): the last number is where it is.
        const numbers = chunk.toString('latin1').match(/\d+(?=\.|\s*-\s*done|$)/g)
        const percent = numbers ? Number(numbers[numbers.length - 1]) : NaN
        if (Number.isFinite(percent) && percent >= 0 && percent <= 100 && percent !== last) {
          last = percent
          onProgress(percent)
        }
      })
    }
  })
}
