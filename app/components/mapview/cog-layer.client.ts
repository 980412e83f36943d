/**
 * A Leaflet layer that paints a Cloud Optimized GeoTIFF read in the browser with geotiff.js
 * (ADR 238): each 256 px map tile asks for its box at its resolution, geotiff.js picks the
 * overview that fits and fetches only the COG blocks it needs with HTTP Range requests
 * (through `range-reader.ts`: past the browser's cache lock, shared, bounded in time).
 * The viewing copy is in Web Mercator (EPSG:3857) or WGS84; anything else is not drawn
 * here (the view falls back to the preview image).
 */
import { rampColour } from '#app/domain/deliverables/elevation-ramp.ts'
import { BaseClient, BaseResponse, fromCustomClient, type GeoTIFF, type Pool } from 'geotiff'
import L from 'leaflet'

import { decodingPool } from './decoded-blocks.ts'
import { abortError, createRangeReader, type RangeAnswer } from './range-reader.ts'
import { isAbort, paintWithRetries } from './tile-attempts.ts'

const WEB_MERCATOR = 3857
const WGS84 = 4326

export interface OpenedCog {
  tiff: GeoTIFF
  /** Decodes COG blocks for `readRasters`, each block once while it is kept. */
  pool: Pool
  epsg: number | null
  /** [minX, minY, maxX, maxY] in the COG's CRS. */
  bbox: number[]
  bandCount: number
  nodata: number | null
}

class RangeResponse extends BaseResponse {
  constructor(private readonly answer: RangeAnswer) {
    super()
  }
  override get status() {
    return this.answer.status
  }
  override getHeader(name: string) {
    const key = name.toLowerCase()
    if (key === 'content-range') return this.answer.contentRange ?? undefined
    if (key === 'content-type') return this.answer.contentType ?? undefined
    return undefined
  }
  override getData() {
    return Promise.resolve(this.answer.data)
  }
}

/** geotiff.js's HTTP client for one COG: every read goes through one range reader. */
class CogClient extends BaseClient {
  private readonly reader = createRangeReader(async (range, signal) => {
    // no-store: past Chrome's one-writer-per-URL cache lock (the reader keeps its own cache).
    const response = await fetch(this.url, {
      headers: { Range: range },
      cache: 'no-store',
      credentials: 'same-origin',
      signal,
    })
    // The body is always read to its end, so an error answer does not hold a connection.
    const data = await response.arrayBuffer()
    return {
      status: response.status,
      contentRange: response.headers.get('content-range'),
      contentType: response.headers.get('content-type'),
      data,
    }
  })

  override async request(options: RequestInit = {}) {
    const range = new Headers(options.headers).get('Range')
    if (!range) throw new Error('A COG is read in byte ranges.')
    return new RangeResponse(await this.reader.read(range, options.signal ?? undefined))
  }
}

/** Tile indexes up to this many entries are read whole when the COG opens (one request, not one a tile). */
const PRELOAD_INDEX_ENTRIES = 32_768

export async function openCog(url: string): Promise<OpenedCog> {
  const tiff = await fromCustomClient(new CogClient(new URL(url, window.location.href).href), {
    allowFullFile: false,
  })
  const image = await tiff.getImage()
  const keys = (image.getGeoKeys() ?? {}) as { ProjectedCSTypeGeoKey?: number; GeographicTypeGeoKey?: number }
  const count = await tiff.getImageCount()
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const level = await tiff.getImage(i)
      if (!level.isTiled) return
      const tiles =
        Math.ceil(level.getWidth() / level.getTileWidth()) *
        Math.ceil(level.getHeight() / level.getTileHeight())
      if (tiles > PRELOAD_INDEX_ENTRIES) return
      await Promise.all([
        level.fileDirectory.loadValue('TileOffsets'),
        level.fileDirectory.loadValue('TileByteCounts'),
      ])
    }),
  )
  return {
    tiff,
    pool: decodingPool(),
    epsg: keys.ProjectedCSTypeGeoKey ?? keys.GeographicTypeGeoKey ?? null,
    bbox: image.getBoundingBox(),
    bandCount: image.getSamplesPerPixel(),
    nodata: image.getGDALNoData(),
  }
}

export function canDrawCog(cog: OpenedCog) {
  return cog.epsg === WEB_MERCATOR || cog.epsg === WGS84
}

/** The height range from the smallest overview, for a model whose range the server did not record. */
export async function heightRangeOf(cog: OpenedCog): Promise<{ min: number; max: number } | null> {
  const image = await cog.tiff.getImage((await cog.tiff.getImageCount()) - 1)
  const [band] = (await image.readRasters({ samples: [0] })) as unknown as [ArrayLike<number>]
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < band.length; i++) {
    const v = band[i]!
    if (!Number.isFinite(v) || v === cog.nodata) continue
    if (v < min) min = v
    if (v > max) max = v
  }
  return min <= max ? { min, max } : null
}

export type CogPaint = { kind: 'orthomosaic' } | { kind: 'elevation'; min: number; max: number }

function paint(cog: OpenedCog, style: CogPaint, bands: ArrayLike<number>[], out: ImageData) {
  const px = out.data
  const n = out.width * out.height
  if (style.kind === 'elevation') {
    const span = style.max - style.min || 1
    const z = bands[0]!
    for (let i = 0; i < n; i++) {
      const v = z[i]!
      if (!Number.isFinite(v) || v === cog.nodata) continue
      const [r, g, b] = rampColour((v - style.min) / span)
      px.set([r, g, b, 255], i * 4)
    }
    return
  }
  const [r, g = r!, b = r!, a] = bands
  for (let i = 0; i < n; i++) {
    const alpha = a ? a[i]! : r![i]! || g[i]! || b[i]! ? 255 : 0
    if (!alpha) continue
    px.set([r![i]!, g[i]!, b[i]!, alpha], i * 4)
  }
}

/** The map tile's box in the COG's CRS. */
function tileBox(map: L.Map, coords: L.Coords, size: L.Point, epsg: number | null) {
  const nw = map.unproject(coords.scaleBy(size), coords.z)
  const se = map.unproject(coords.scaleBy(size).add(size), coords.z)
  if (epsg === WGS84) return [nw.lng, se.lat, se.lng, nw.lat]
  const a = L.CRS.EPSG3857.project(nw)
  const b = L.CRS.EPSG3857.project(se)
  return [a.x, b.y, b.x, a.y]
}

export const overlaps = (a: number[], b: number[]) =>
  a[0]! < b[2]! && a[2]! > b[0]! && a[1]! < b[3]! && a[3]! > b[1]!

/** What a canvas tile layer's tiles are doing, summed over a map by `TileProgress`. */
interface TileCounts {
  /** Tiles on the map still being read. */
  pending: number
  /** Tiles on the map whose last attempt failed (tried again after the next move). */
  failed: number
}

export const TILE_COUNTS_EVENT = 'canvastiles'
/** A failed tile is asked for again on a move at least this long after it failed. */
const RETRY_FAILED_AFTER_MS = 3000

type PaintTile = (
  boxIn: (epsg: number | null) => number[],
  size: L.Point,
  image: ImageData,
  signal: AbortSignal,
) => Promise<void> | null

/** The parts of Leaflet's GridLayer the tile bookkeeping uses (stable through Leaflet 1.x). */
interface GridInternals {
  _map: L.Map | null
  _tiles: Record<string, { el: HTMLElement; coords: L.Coords; loaded?: number }>
  _tileZoom: number | undefined
  _tileCoordsToKey(coords: L.Coords): string
  _removeTile(key: string): void
  _update(center?: L.LatLng): void
}

interface TileRun {
  controller: AbortController
  failedAt: number | null
}

/**
 * A Leaflet layer of 256 px canvas tiles: `paintTile` gets the tile's box in a CRS, its size
 * and a signal, and fills the tile's pixels (null: nothing there, the tile stays empty).
 * Every tile ends: painted, or failed after its attempts (marked `cog-tile-failed`, asked
 * for again after the next move); a tile that leaves the map stops its reads, and tiles of
 * a zoom level left behind are dropped as Leaflet's image layers drop theirs.
 */
export function canvasTileLayer(paintTile: PaintTile, options: L.GridLayerOptions = {}) {
  const runs = new Map<HTMLElement, TileRun>()

  const CanvasLayer = L.GridLayer.extend({
    initialize(this: L.GridLayer, layerOptions: L.GridLayerOptions) {
      ;(L.GridLayer.prototype as unknown as { initialize: (o: L.GridLayerOptions) => void }).initialize.call(
        this,
        layerOptions,
      )
      this.on('tileunload', (event: L.TileEvent) => {
        const run = runs.get(event.tile)
        if (!run) return
        runs.delete(event.tile)
        run.controller.abort()
        report(this as unknown as GridInternals)
      })
    },

    onAdd(this: L.GridLayer & GridInternals & { _retryFailed: () => void }, map: L.Map) {
      L.GridLayer.prototype.onAdd.call(this, map)
      map.on('moveend', this._retryFailed, this)
      return this
    },

    onRemove(this: L.GridLayer & GridInternals & { _retryFailed: () => void }, map: L.Map) {
      map.off('moveend', this._retryFailed, this)
      L.GridLayer.prototype.onRemove.call(this, map)
      map.fire(TILE_COUNTS_EVENT)
      return this
    },

    /** Called by Leaflet when the zoom level changes: unfinished tiles of other levels go. */
    _abortLoading(this: GridInternals) {
      for (const [key, tile] of Object.entries(this._tiles)) {
        if (tile.coords.z !== this._tileZoom && runs.has(tile.el)) this._removeTile(key)
      }
    },

    /**
     * Leaflet drops the level left behind on a timer that, on a busy machine, can run before
     * the new level's tiles have faded in, and then never again: a tile turning opaque prunes too.
     */
    _onOpaqueTile(this: GridInternals & { _pruneTiles(): void }) {
      queueMicrotask(() => this._pruneTiles())
    },

    _retryFailed(this: GridInternals) {
      const now = Date.now()
      let removed = false
      for (const [key, tile] of Object.entries(this._tiles)) {
        const failedAt = runs.get(tile.el)?.failedAt
        if (failedAt != null && now - failedAt >= RETRY_FAILED_AFTER_MS) {
          this._removeTile(key)
          removed = true
        }
      }
      if (removed) this._update()
    },

    /** Pending and failed tiles on the map now. */
    tileCounts(this: GridInternals): TileCounts {
      let pending = 0
      let failed = 0
      for (const tile of Object.values(this._tiles)) {
        const run = runs.get(tile.el)
        if (!run) continue
        if (run.failedAt === null) pending++
        else failed++
      }
      return { pending, failed }
    },

    createTile(this: L.GridLayer & GridInternals, coords: L.Coords, done: L.DoneCallback) {
      const size = this.getTileSize()
      const canvas = document.createElement('canvas')
      canvas.width = size.x
      canvas.height = size.y
      const context = canvas.getContext('2d')!
      const key = this._tileCoordsToKey(coords)
      const map = this._map!
      const run: TileRun = { controller: new AbortController(), failedAt: null }
      runs.set(canvas, run)
      const finish = (error?: Error) => {
        if (runs.get(canvas) !== run) return
        // Only the tile still on the map under this key is reported (zooming back makes a new one).
        if (this._tiles[key]?.el !== canvas) return
        if (error) {
          run.failedAt = Date.now()
          canvas.classList.add('cog-tile-failed')
        } else {
          runs.delete(canvas)
        }
        done(error, canvas)
        report(this)
      }
      paintWithRetries(
        async (signal) => {
          const image = context.createImageData(size.x, size.y)
          const painting = paintTile((epsg) => tileBox(map, coords, size, epsg), size, image, signal)
          if (!painting) return
          await painting
          if (signal.aborted) throw abortError()
          context.putImageData(image, 0, 0)
        },
        { signal: run.controller.signal },
      ).then(
        () => finish(),
        (error: Error) => {
          if (!isAbort(error) || !run.controller.signal.aborted) finish(error)
        },
      )
      // Leaflet adds the tile after this returns; the count is reported then.
      queueMicrotask(() => report(this))
      return canvas
    },
  })
  const Layer = CanvasLayer as unknown as new (options: L.GridLayerOptions) => L.GridLayer
  return new Layer({ tileSize: 256, maxZoom: 22, maxNativeZoom: 22, ...options })
}

function report(layer: GridInternals) {
  layer._map?.fire(TILE_COUNTS_EVENT)
}

/** The pending and failed tiles of every canvas tile layer on `map`. */
export function tileCountsOf(map: L.Map): TileCounts {
  const total = { pending: 0, failed: 0 }
  map.eachLayer((layer) => {
    const counts = (layer as { tileCounts?: () => TileCounts }).tileCounts?.()
    if (!counts) return
    total.pending += counts.pending
    total.failed += counts.failed
  })
  return total
}

export function createCogLayer(cog: OpenedCog, style: CogPaint, options: L.GridLayerOptions = {}) {
  return canvasTileLayer((boxIn, size, image, signal) => {
    const box = boxIn(cog.epsg)
    if (!overlaps(box, cog.bbox)) return null
    return cog.tiff
      .readRasters({
        bbox: box,
        signal,
        pool: cog.pool,
        width: size.x,
        height: size.y,
        resampleMethod: 'nearest',
        fillValue: style.kind === 'elevation' ? (cog.nodata ?? Number.NaN) : 0,
        interleave: false,
      })
      .then((rasters) => paint(cog, style, rasters as unknown as ArrayLike<number>[], image))
  }, options)
}

/** The COG's outline as Leaflet bounds. */
export function cogBounds(cog: OpenedCog) {
  const [minX, minY, maxX, maxY] = cog.bbox as [number, number, number, number]
  if (cog.epsg === WGS84) return L.latLngBounds([minY, minX], [maxY, maxX])
  return L.latLngBounds(
    L.CRS.EPSG3857.unproject(L.point(minX, minY)),
    L.CRS.EPSG3857.unproject(L.point(maxX, maxY)),
  )
}
