/**
 * A Leaflet layer that paints a Cloud Optimized GeoTIFF read in the browser with geotiff.js
 * (ADR 238): each 256 px map tile asks for its box at its resolution, geotiff.js picks the
 * overview that fits and fetches only the COG blocks it needs with HTTP Range requests.
 * The viewing copy is in Web Mercator (EPSG:3857) or WGS84; anything else is not drawn
 * here (the view falls back to the preview image).
 */
import { rampColour } from '#app/domain/deliverables/elevation-ramp.ts'
import { fromUrl, type GeoTIFF } from 'geotiff'
import L from 'leaflet'

const WEB_MERCATOR = 3857
const WGS84 = 4326

export interface OpenedCog {
  tiff: GeoTIFF
  epsg: number | null
  /** [minX, minY, maxX, maxY] in the COG's CRS. */
  bbox: number[]
  bandCount: number
  nodata: number | null
}

export async function openCog(url: string): Promise<OpenedCog> {
  const tiff = await fromUrl(new URL(url, window.location.href).href, { allowFullFile: false })
  const image = await tiff.getImage()
  const keys = (image.getGeoKeys() ?? {}) as { ProjectedCSTypeGeoKey?: number; GeographicTypeGeoKey?: number }
  return {
    tiff,
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

/**
 * A Leaflet layer of 256 px canvas tiles: `paintTile` gets the tile's box in a CRS and its size
 * and fills the tile's pixels (null: nothing there, the tile stays empty).
 */
export function canvasTileLayer(
  paintTile: (
    boxIn: (epsg: number | null) => number[],
    size: L.Point,
    image: ImageData,
  ) => Promise<void> | null,
  options: L.GridLayerOptions = {},
) {
  const CanvasLayer = L.GridLayer.extend({
    createTile(this: L.GridLayer & { _map: L.Map }, coords: L.Coords, done: L.DoneCallback) {
      const size = this.getTileSize()
      const canvas = document.createElement('canvas')
      canvas.width = size.x
      canvas.height = size.y
      const context = canvas.getContext('2d')!
      const image = context.createImageData(size.x, size.y)
      const painting = paintTile((epsg) => tileBox(this._map, coords, size, epsg), size, image)
      if (!painting) {
        queueMicrotask(() => done(undefined, canvas))
        return canvas
      }
      painting
        .then(() => {
          context.putImageData(image, 0, 0)
          done(undefined, canvas)
        })
        .catch((error: Error) => done(error, canvas))
      return canvas
    },
  })
  const Layer = CanvasLayer as unknown as new (options: L.GridLayerOptions) => L.GridLayer
  return new Layer({ tileSize: 256, maxZoom: 22, maxNativeZoom: 22, ...options })
}

export function createCogLayer(cog: OpenedCog, style: CogPaint, options: L.GridLayerOptions = {}) {
  return canvasTileLayer((boxIn, size, image) => {
    const box = boxIn(cog.epsg)
    if (!overlaps(box, cog.bbox)) return null
    return cog.tiff
      .readRasters({
        bbox: box,
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
