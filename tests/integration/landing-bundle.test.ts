/**
 * The landing page's JavaScript budget (ADR 184). The page is sent without scripts now
 * (`handle.hydrate === false`, checked in landing-scripts.test.ts), so a first visit loads none;
 * this keeps the budget for the scripts it would load if it hydrated again, or once a client
 * navigation brings it in (the client entry, the root route and the index route, each with the
 * chunks it imports), gzipped as the server sends them (compression's default level) and summed
 * from the build manifest: at most 100 KiB. React DOM and Remix alone are about 84 KiB of it.
 * Reads `public/build` (`npm test` builds before the unit stage); builds the client first when
 * there is no manifest or it is older than the app's sources.
 */
import { execSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { expect, test } from 'vitest'

const BUDGET = 100 * 1024
const ROOT = path.resolve(import.meta.dirname, '../..')
const BUILD = path.join(ROOT, 'public/build')

interface ManifestEntry {
  module: string
  imports?: string[]
}
interface Manifest {
  entry: ManifestEntry
  routes: Record<string, ManifestEntry>
}

const manifestFile = () =>
  fs.existsSync(BUILD) ? fs.readdirSync(BUILD).find((name) => /^manifest-.*\.js$/.test(name)) : undefined

/** The newest modification time of the app's sources. */
function newestSource(dir = path.join(ROOT, 'app')): number {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs)
  }
  return newest
}

function readManifest(): Manifest {
  const current = manifestFile()
  if (!current || fs.statSync(path.join(BUILD, current)).mtimeMs < newestSource())
    // vitest sets NODE_ENV=test, which would make an unminified development build.
    execSync('npx remix build', {
      cwd: ROOT,
      stdio: 'inherit',
      timeout: 600_000,
      env: { ...process.env, NODE_ENV: 'production' },
    })
  const file = manifestFile()
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

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

test(`the landing page loads at most ${kib(BUDGET)} of JavaScript (gzip)`, { timeout: 660_000 }, () => {
  const sizes = landingScripts(readManifest()).map((url) => ({
    url,
    bytes: gzipSync(fs.readFileSync(path.join(ROOT, 'public', url))).length,
  }))
  const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0)
  const lines = sizes
    .sort((a, b) => b.bytes - a.bytes)
    .map(({ url, bytes }) => `${kib(bytes).padStart(10)}  ${url}`)
  console.log(`${lines.join('\n')}\nlanding page JavaScript: ${kib(total)} gzip (budget ${kib(BUDGET)})`)
  expect(total, `landing page JavaScript is ${kib(total)} gzip`).toBeLessThanOrEqual(BUDGET)
})

test('three.js and the point cloud readers load only with the 3D view’s canvas, never on the landing page or the Map view', () => {
  const manifest = readManifest()
  const scriptsOf = (route: string) => {
    const part = manifest.routes[route]
    if (!part) throw new Error(`The manifest lacks ${route}`)
    return [manifest.entry, manifest.routes.root!, part].flatMap((p) => [p.module, ...(p.imports ?? [])])
  }
  const holdsThree = (url: string) =>
    fs.readFileSync(path.join(ROOT, 'public', url), 'utf8').includes('WebGLRenderer')
  for (const route of ['routes/_index', 'routes/projects.$projectId.map', 'routes/projects.$projectId.3d'])
    expect(scriptsOf(route).filter(holdsThree), route).toEqual([])
  // The canvas's own chunk (fetched once hydrated) does hold it.
  const chunks = fs.readdirSync(path.join(BUILD, '_shared')).map((name) => `/build/_shared/${name}`)
  expect(chunks.some(holdsThree)).toBe(true)
})

test('the landing page loads no map, form-schema or 3D library (they load with the pages that use them)', () => {
  const scripts = landingScripts(readManifest())
  // A token only each library's own code holds (not its name, which the page's words may use).
  const libraries = { Leaflet: '_leaflet_id', zod: 'ZodError', 'three.js': 'WebGLRenderer' }
  const held = Object.entries(libraries).flatMap(([name, token]) =>
    scripts.some((url) => fs.readFileSync(path.join(ROOT, 'public', url), 'utf8').includes(token))
      ? [name]
      : [],
  )
  expect(held).toEqual([])
  // The tokens are real: each library is in the build, in a chunk of its own pages.
  const chunks = fs
    .readdirSync(path.join(BUILD, '_shared'))
    .map((name) => fs.readFileSync(path.join(BUILD, '_shared', name), 'utf8'))
  for (const token of Object.values(libraries))
    expect(
      chunks.some((text) => text.includes(token)),
      token,
    ).toBe(true)
})
