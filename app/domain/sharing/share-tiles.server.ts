/**
 * What a share link, or a signed-in user, gives a GIS: XYZ tiles and WMTS capabilities of the
 * orthomosaics and elevation models they may read (a view-only link: their reduced copies only).
 * Access is checked at every tile, so a revoked link's tiles stop at once (410).
 */
import fs from 'node:fs'
import { createReadableStreamFromReadable } from '@remix-run/node'
import {
  viewFileWithoutAccessCheck,
  visibleDeliverableRows,
} from '#app/domain/deliverables/deliverables.server.ts'
import { getDownloadableFile } from '#app/domain/files/file-queries.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { ensureLocalFile } from '#app/lib/storage/file-cache.server.ts'
import { deliverableViews, type ProjectFile, type User } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { isTiledRaster } from './gis-links.ts'
import type { OpenShare } from './share-access.server.ts'
import {
  nativeZoom,
  tileOf,
  wmtsCapabilities,
  type TileAddress,
  type TileSource,
  type WmtsLayer,
} from './xyz-tiles.server.ts'

type Actor = Pick<User, 'id' | 'role'>

const TILE_CACHE = 'private, no-cache, no-transform'

function readyView(fileId: number, db: DbOrTx) {
  const view = db.select().from(deliverableViews).where(eq(deliverableViews.fileId, fileId)).get()
  return view?.status === 'ready' ? view : null
}

function maxZoomOf(file: ProjectFile) {
  const [, south, , north] = file.rasterInfo!.boundsWgs84
  return nativeZoom(file.rasterInfo!.gsdCm, (south + north) / 2) + 2
}

/** The tile source of a raster the caller may read: its COG, or (a view-only link's) its reduced copy. */
async function sourceOf(
  projectId: number,
  file: ProjectFile,
  reduced: boolean,
  db: DbOrTx,
): Promise<TileSource> {
  if (!isTiledRaster(file)) throw new DomainError(404, 'This file has no map tiles.')
  const copy = viewFileWithoutAccessCheck(projectId, file.id, 'cog', db, { reduced })
  const view = readyView(file.id, db)
  const heights = file.deliverableKind === 'elevation' && !reduced
  return {
    fileId: file.id,
    path: await ensureLocalFile(copy.path),
    // The reduced copy of an elevation model is already in colours.
    draw: heights ? 'elevation' : 'image',
    range:
      view?.minValue != null && view.maxValue != null && view.maxValue > view.minValue
        ? { min: view.minValue, max: view.maxValue }
        : null,
    boundsWgs84: file.rasterInfo!.boundsWgs84,
    maxZoom: maxZoomOf(file),
    variant: reduced ? 'reduced' : 'full',
  }
}

/** One tile as a response (204 where the tile misses the raster), cut for `accountId`'s GDAL share. */
async function tileResponse(
  source: TileSource,
  accountId: number,
  address: TileAddress,
  signal: AbortSignal,
) {
  const tile = await tileOf(source, address, { owner: { accountId }, signal })
  if ('empty' in tile) return new Response(null, { status: 204, headers: { 'Cache-Control': TILE_CACHE } })
  const size = fs.statSync(tile.png).size
  return new Response(createReadableStreamFromReadable(fs.createReadStream(tile.png)), {
    headers: { 'Content-Type': 'image/png', 'Content-Length': String(size), 'Cache-Control': TILE_CACHE },
  })
}

/** WMTS capabilities with a layer per tiled raster with a ready viewing copy. */
function capabilitiesOf(title: string, tileBase: string, files: ProjectFile[], db: DbOrTx) {
  const layers: WmtsLayer[] = files
    .filter((file) => isTiledRaster(file) && readyView(file.id, db))
    .map((file) => ({
      id: file.id,
      title: file.originalName,
      boundsWgs84: file.rasterInfo!.boundsWgs84,
      maxZoom: maxZoomOf(file),
    }))
  return wmtsCapabilities(`${title} (Kestrel)`, tileBase, layers)
}

/** One tile of a shared raster as a response (204 where the tile misses the raster). */
export async function sharedTileResponse(
  share: OpenShare,
  file: ProjectFile,
  address: TileAddress,
  signal: AbortSignal,
  db: DbOrTx = getDb(),
): Promise<Response> {
  const source = await sourceOf(share.project.id, file, !share.link.allowDownload, db)
  return tileResponse(source, share.project.clientId, address, signal)
}

/** The WMTS capabilities of a share link: one layer per shared raster with a ready viewing copy. */
export function sharedWmtsCapabilities(share: OpenShare, tileBase: string, db: DbOrTx = getDb()) {
  return capabilitiesOf(share.project.name, tileBase, share.files, db)
}

/** One tile of a project's raster for a signed-in user who may download it (404 as the download would). */
export async function projectTileResponse(
  user: Actor,
  projectId: number,
  fileId: number,
  address: TileAddress,
  signal: AbortSignal,
  db: DbOrTx = getDb(),
): Promise<Response> {
  const { file, project } = getDownloadableFile(user, fileId, db)
  if (project.id !== projectId) throw new DomainError(404, 'File not found')
  return tileResponse(await sourceOf(projectId, file, false, db), user.id, address, signal)
}

/** The WMTS capabilities of a project's rasters this signed-in user may see. */
export function projectWmtsCapabilities(
  user: Actor,
  projectId: number,
  tileBase: string,
  db: DbOrTx = getDb(),
) {
  const { project, files } = visibleDeliverableRows(user, projectId, db)
  // Oldest first, as a share link's capabilities list its layers.
  return capabilitiesOf(project.name, tileBase, files.reverse(), db)
}
