/**
 * A Remix server build made from the app's sources, read from the route manifest, so a
 * test covers every route (and any route added later) without a `npm run build`.
 */
import path from 'node:path'
import { readConfig } from '@remix-run/dev/dist/config.js'
import type { ServerBuild } from '@remix-run/node'

export interface ManifestRoute {
  id: string
  /** The full URL pattern (`/api/client/projects/:id`). */
  path: string
  hasAction: boolean
  hasLoader: boolean
}

function fullPath(id: string, manifest: Record<string, { path?: string; parentId?: string }>): string {
  const parts: string[] = []
  for (let at: string | undefined = id; at; at = manifest[at]?.parentId) {
    const segment = manifest[at]?.path
    if (segment) parts.unshift(segment)
  }
  return '/' + parts.join('/')
}

/** The build and every route but the root, sorted by path. */
export async function buildFromSources(): Promise<{ build: ServerBuild; routes: ManifestRoute[] }> {
  const config = await readConfig(process.cwd(), 'production' as Parameters<typeof readConfig>[1])
  const manifest = config.routes as Record<
    string,
    { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean; file: string }
  >
  const serverRoutes: ServerBuild['routes'] = {}
  const assetRoutes: Record<string, unknown> = {}
  const routes: ManifestRoute[] = []
  for (const route of Object.values(manifest)) {
    const module = await import(path.join(config.appDirectory, route.file))
    serverRoutes[route.id] = {
      id: route.id,
      parentId: route.parentId,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      module,
    }
    assetRoutes[route.id] = {
      id: route.id,
      parentId: route.parentId,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      module: `/build/${route.id}.js`,
      imports: [],
      hasAction: Boolean(module.action),
      hasLoader: Boolean(module.loader),
      hasClientAction: false,
      hasClientLoader: false,
      hasErrorBoundary: Boolean(module.ErrorBoundary),
    }
    if (route.id !== 'root') {
      routes.push({
        id: route.id,
        path: fullPath(route.id, manifest),
        hasAction: Boolean(module.action),
        hasLoader: Boolean(module.loader),
      })
    }
  }
  const build = {
    mode: 'production',
    entry: { module: await import(path.join(config.appDirectory, 'entry.server.tsx')) },
    routes: serverRoutes,
    assets: {
      version: 'source',
      url: '/build/manifest-source.js',
      entry: { module: '/build/entry.client.js', imports: [] },
      routes: assetRoutes,
    },
    publicPath: '/build/',
    assetsBuildDirectory: 'public/build',
    future: config.future,
    isSpaMode: false,
  } as unknown as ServerBuild
  return { build, routes: routes.sort((a, b) => a.path.localeCompare(b.path)) }
}
