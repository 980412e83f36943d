/**
 * What a share link gives a GIS: XYZ tiles and WMTS capabilities of its orthomosaics and
 * elevation models (a view-only link: their reduced copies only). The link is checked at every
 * tile, so a revoked link's tiles stop at once (410).
 */
import fs from 'node:fs'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { viewFileWithoutAccessCheck } from '#app/domain/deliverables/deliverables.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { ensureLocalFile } from '#app/lib/storage/file-cache.server.ts'
import { deliverableViews, type ProjectFile } from '#db/schema.ts'
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

const TILE_CACHE = 'private, no-cache, no-transform'

function readyView(fileId: number, db: DbOrTx) {
  const view = db.select().from(deliverableViews).where(eq(deliverableViews.fileId, fileId)).get()
  return view?.status === 'ready' ? view : null
}

function maxZoomOf(file: ProjectFile) {
  const [, south, , north] = file.rasterInfo!.boundsWgs84
  return nativeZoom(file.rasterInfo!.gsdCm, (south + north) / 2) + 2
}

/** The tile source of a shared raster: the COG, or for a view-only link its reduced copy. */
async function sourceOf(share: OpenShare, file: ProjectFile, db: DbOrTx): Promise<TileSource> {
  if (!isTiledRaster(file)) throw new DomainError(404, 'This file has no map tiles.')
  const reduced = !share.link.allowDownload
  const copy = viewFileWithoutAccessCheck(share.project.id, file.id, 'cog', db, { reduced })
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

/** One tile of a shared raster as a response (204 where the tile misses the raster). */
export async function sharedTileResponse(
  share: OpenShare,
  file: ProjectFile,
  address: TileAddress,
  signal: AbortSignal,
  db: DbOrTx = getDb(),
): Promise<Response> {
  const source = await sourceOf(share, file, db)
  const tile = await tileOf(source, address, { owner: { accountId: share.project.clientId }, signal })
  if ('empty' in tile) return new Response(null, { status: 204, headers: { 'Cache-Control': TILE_CACHE } })
  const size = fs.statSync(tile.png).size
  return new Response(createReadableStreamFromReadable(fs.createReadStream(tile.png)), {
    headers: { 'Content-Type': 'image/png', 'Content-Length': String(size), 'Cache-Control': TILE_CACHE },
  })
}

/** The WMTS capabilities of a share link: one layer per shared raster with a ready viewing copy. */
export function sharedWmtsCapabilities(share: OpenShare, tileBase: string, db: DbOrTx = getDb()) {
  const layers: WmtsLayer[] = share.files
    .filter((file) => isTiledRaster(file) && readyView(file.id, db))
    .map((file) => ({
      id: file.id,
      title: file.originalName,
      boundsWgs84: file.rasterInfo!.boundsWgs84,
      maxZoom: maxZoomOf(file),
    }))
  return wmtsCapabilities(`${share.project.name} (Kestrel)`, tileBase, layers)
}
