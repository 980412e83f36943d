/**
 * A Leaflet layer that paints a Cloud Optimized GeoTIFF read in the browser with geotiff.js:
 * the COG stays in its raster's own CRS (recorded by the viewing-copy job in its metadata, or
 * Web Mercator/WGS84 geokeys for copies made before), and each 256 px map tile is reprojected
 * here (`reproject.ts`): the tile picks the overview no coarser than its pixels, reads that
 * window (only the COG blocks it needs, with HTTP Range requests through `range-reader.ts`:
 * past the browser's cache lock, shared, bounded in time) and samples it per pixel.
 * A COG whose CRS is not known is not drawn here (the view falls back to the preview image).
 */
import { rampColour } from '#app/domain/deliverables/elevation-ramp.ts'
import {
  BaseClient,
  BaseResponse,
  fromCustomClient,
  type GeoTIFF,
  type GeoTIFFImage,
  type Pool,
} from 'geotiff'
import L from 'leaflet'

import { decodingPool } from './decoded-blocks.ts'
import { abortError, createRangeReader, type RangeAnswer } from './range-reader.ts'
import {
  geoTransformOf,
  mercatorLngLat,
  outlineOf,
  planTile,
  rasterPlace,
  sampleBand,
  ycbcrToRgb,
  type RasterPlace,
} from './reproject.ts'
import { isAbort, paintWithRetries } from './tile-attempts.ts'

/** The metadata item the viewing-copy job records the COG's CRS in (GDAL's PROJ.4 text). */
const CRS_ITEM = 'KESTREL_PROJ4'
/** The CRS of viewing copies made before the job recorded one: their geokeys. */
const KNOWN_CRS: Record<number, string> = { 3857: 'EPSG:3857', 4326: 'EPSG:4326' }

interface Level {
  image: GeoTIFFImage
  width: number
  height: number
  /** Its internal mask (GDAL's 1-bit transparency mask of a JPEG COG), if any. */
  mask: GeoTIFFImage | null
}

export interface OpenedCog {
  tiff: GeoTIFF
  /** Decodes COG blocks for `readRasters`, each block once while it is kept. */
  pool: Pool
  /** Where its pixels are; null when its CRS is not known (not drawn). */
  place: RasterPlace | null
  /** The full level, then its overviews. */
  levels: Level[]
  /** [west, south, east, north] in degrees. */
  outline: readonly [number, number, number, number] | null
  bandCount: number
  ycbcr: boolean
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
  const images = await Promise.all(Array.from({ length: count }, (_, i) => tiff.getImage(i)))
  await Promise.all(
    images.map(async (level) => {
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
  const isMask = (level: GeoTIFFImage) =>
    ((level.fileDirectory.getValue('NewSubfileType') as number) ?? 0) & 4
  const masks = images.filter(isMask)
  const levels = images
    .filter((level, i) => i === 0 || !isMask(level))
    .map((level) => ({
      image: level,
      width: level.getWidth(),
      height: level.getHeight(),
      mask:
        masks.find((m) => m.getWidth() === level.getWidth() && m.getHeight() === level.getHeight()) ?? null,
    }))
  const recorded = ((await image.getGDALMetadata()) ?? {})[CRS_ITEM]
  const epsg = keys.ProjectedCSTypeGeoKey ?? keys.GeographicTypeGeoKey ?? null
  const crs = typeof recorded === 'string' ? recorded : epsg !== null ? KNOWN_CRS[epsg] : undefined
  const directory = image.fileDirectory
  const gt = geoTransformOf({
    transformation: directory.hasTag('ModelTransformation')
      ? directory.getValue('ModelTransformation')
      : null,
    tiepoint: directory.hasTag('ModelTiepoint') ? directory.getValue('ModelTiepoint') : null,
    pixelScale: directory.hasTag('ModelPixelScale') ? directory.getValue('ModelPixelScale') : null,
  })
  const place = crs && gt ? rasterPlace(crs, gt) : null
  return {
    tiff,
    pool: decodingPool(),
    place,
    levels,
    outline: place ? outlineOf(place, image.getWidth(), image.getHeight()) : null,
    bandCount: image.getSamplesPerPixel(),
    ycbcr: directory.getValue('PhotometricInterpretation') === 6,
    nodata: image.getGDALNoData(),
  }
}

export function canDrawCog(cog: OpenedCog) {
  return cog.place !== null
}

/** The tile's pixels → lng/lat: pixel (x, y) from its top left corner. */
export type TilePixels = (x: number, y: number) => [number, number]

/**
 * Band values (`samples`, or all; NaN off the raster, at nodata or masked out; RGB for a JPEG
 * COG) on a grid of `size` whose pixel (x, y) is at `lngLatAt(x, y)`. Null when it misses the raster.
 */
export async function sampleCog(
  cog: OpenedCog,
  lngLatAt: TilePixels,
  size: { width: number; height: number },
  signal?: AbortSignal,
  samples?: number[],
): Promise<Float32Array[] | null> {
  if (!cog.place) return null
  const plan = planTile(cog.place, lngLatAt, size, cog.levels)
  if (!plan) return null
  const level = cog.levels[plan.level]!
  const read = { window: plan.window, pool: cog.pool, signal, interleave: false as const }
  const [rasters, mask] = await Promise.all([
    level.image.readRasters({ ...read, ...(samples ? { samples } : {}) }),
    level.mask && !samples ? level.mask.readRasters({ ...read, samples: [0] }) : null,
  ])
  const bands = (rasters as unknown as ArrayLike<number>[]).map((band) =>
    sampleBand(band, plan.index, cog.nodata),
  )
  if (cog.ycbcr && bands.length >= 3) ycbcrToRgb(bands[0]!, bands[1]!, bands[2]!)
  if (mask)
    bands.push(sampleBand((mask as unknown as ArrayLike<number>[])[0]!, plan.index, null).map((v) => v * 255))
  return bands
}

/** The height range from the smallest overview, for a model whose range the server did not record. */
export async function heightRangeOf(cog: OpenedCog): Promise<{ min: number; max: number } | null> {
  const image = cog.levels.reduce((a, b) => (b.width < a.width ? b : a)).image
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
    // NaN (off the raster) is no alpha; without an alpha band or mask, black is the edge.
    const alpha = a ? a[i]! : r![i]! || g[i]! || b[i]! ? 255 : 0
    if (!alpha) continue
    px.set([r![i]!, g[i]!, b[i]!, alpha], i * 4)
  }
}

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
  lngLatAt: TilePixels,
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
 * A Leaflet layer of 256 px canvas tiles: `paintTile` gets the tile's pixels' lng/lat, its size
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
          const [x0, y0] = [coords.x * size.x, coords.y * size.y]
          const lngLatAt: TilePixels = (x, y) => mercatorLngLat(x0 + x, y0 + y, coords.z)
          const painting = paintTile(lngLatAt, size, image, signal)
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
  return canvasTileLayer(
    (lngLatAt, size, image, signal) =>
      sampleCog(cog, lngLatAt, { width: size.x, height: size.y }, signal).then((bands) => {
        if (bands) paint(cog, style, bands, image)
      }),
    options,
  )
}

/** The COG's outline as Leaflet bounds. */
export function cogBounds(cog: OpenedCog) {
  const [west, south, east, north] = cog.outline ?? [0, 0, 0, 0]
  return L.latLngBounds([south, west], [north, east])
}
