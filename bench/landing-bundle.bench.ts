/**
 * The landing page's JavaScript budget: every script a first visit to `/` loads (the
 * client entry, the root route and the index route, each with the chunks it imports)
 * gzipped as the server sends them (compression's default level) and summed from the
 * build manifest; over 100 KiB fails (ADR 184).
 * Builds the client first when `public/build` has no manifest (`npm run build` otherwise).
 * Run: `npm run bench -- bench/landing-bundle.bench.ts`.
 */
import { execSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { bench, describe } from 'vitest'

const BUDGET = 100 * 1024
const ROOT = path.resolve(import.meta.dirname, '..')
const BUILD = path.join(ROOT, 'public/build')

interface ManifestEntry {
  module: string
  imports?: string[]
}
interface Manifest {
  entry: ManifestEntry
  routes: Record<string, ManifestEntry>
}

function readManifest(): Manifest {
  const find = () =>
    fs.existsSync(BUILD) ? fs.readdirSync(BUILD).find((name) => /^manifest-.*\.js$/.test(name)) : undefined
  if (!find()) execSync('npx remix build', { cwd: ROOT, stdio: 'inherit' })
  const file = find()
  if (!file) throw new Error('No build manifest in public/build after building')
  const text = fs.readFileSync(path.join(BUILD, file), 'utf8')
  return JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as Manifest
}

/** The URLs of every script the landing page loads on first visit. */
function landingScripts(manifest: Manifest) {
  const parts = [manifest.entry, manifest.routes.root, manifest.routes['routes/_index']]
  if (parts.some((part) => !part)) throw new Error('The manifest lacks the entry, root or index route')
  return [...new Set(parts.flatMap((part) => [part!.module, ...(part!.imports ?? [])]))]
}

function gzipSize(url: string) {
  return gzipSync(fs.readFileSync(path.join(ROOT, 'public', url))).length
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

describe('landing page JavaScript', () => {
  bench(
    `gzip total of the scripts / loads is at most ${kib(BUDGET)}`,
    () => {
      const sizes = landingScripts(readManifest()).map((url) => ({ url, bytes: gzipSize(url) }))
      const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0)
      for (const { url, bytes } of sizes.sort((a, b) => b.bytes - a.bytes))
        console.log(`${kib(bytes).padStart(10)}  ${url}`)
      console.log(`landing page JavaScript: ${kib(total)} gzip (budget ${kib(BUDGET)})`)
      if (total > BUDGET)
        throw new Error(`Landing page JavaScript is ${kib(total)} gzip, over ${kib(BUDGET)}`)
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  )
})
