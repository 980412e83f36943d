/**
 * XYZ tiles (Web Mercator, 256 px PNG) of a raster deliverable for GIS and CAD (QGIS, ArcGIS,
 * AutoCAD Map), and the WMTS capabilities that describe them. Each tile is cut from the
 * deliverable's viewing copy (the COG; a view-only link's reduced copy) by `gdalwarp`, which
 * reads only the blocks and overview it needs; an elevation model is coloured with the map's
 * ramp (`gdaldem color-relief`). Tiles are kept beside the viewing copy (`views/<id>/xyz/`).
 * Zooms beyond two levels finer than the raster's own pixels are refused: they add no detail and
 * would let a client fill the disk.
 */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { gdalColourFile, type HeightRange } from '#app/domain/deliverables/elevation-ramp.ts'
import { GdalError, runGdal, type GdalOwner } from '#app/domain/deliverables/gdal.server.ts'
import { ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'

const TILE_SIZE = 256
/** Web Mercator spans half the equator (WGS84 semi-major axis 6378137 m) either side of 0. */
const HALF_WORLD_M = Math.PI * 6378137
const TILE_TIMEOUT_MS = 30_000
/** The finest zoom offered is this many levels past the raster's own pixel size. */
const ZOOM_PAST_NATIVE = 2
const MAX_ZOOM = 24

const TILE_MESSAGES = {
  badTile: 'Tiles are /{z}/{x}/{y}.png with whole numbers inside the zoom level.',
  tooDeep: 'This zoom level is finer than the survey: use a lower one.',
  failed: 'The tile could not be drawn. Please try again.',
} as const

export type TileAddress = { z: number; x: number; y: number }

/** z/x/y from the route's text (`y` may end in `.png`); 400 for anything else. */
export function parseTileAddress(z?: string, x?: string, y?: string): TileAddress {
  const whole = (text: string | undefined) => (text && /^\d{1,8}$/.test(text) ? Number(text) : Number.NaN)
  const address = { z: whole(z), x: whole(x), y: whole(y?.replace(/\.png$/, '')) }
  const span = 2 ** address.z
  if (
    !Number.isInteger(address.z) ||
    address.z > MAX_ZOOM ||
    !Number.isInteger(address.x) ||
    !Number.isInteger(address.y) ||
    address.x >= span ||
    address.y >= span
  )
    throw new DomainError(400, TILE_MESSAGES.badTile)
  return address
}

/** The tile's extent in Web Mercator metres: [minX, minY, maxX, maxY]. */
function tileBounds({ z, x, y }: TileAddress): [number, number, number, number] {
  const size = (2 * HALF_WORLD_M) / 2 ** z
  const minX = -HALF_WORLD_M + x * size
  const maxY = HALF_WORLD_M - y * size
  return [minX, maxY - size, minX + size, maxY]
}

/** Web Mercator metres of a WGS84 point. */
function mercator(lng: number, lat: number): [number, number] {
  const clamped = Math.max(-85.0511, Math.min(85.0511, lat))
  return [
    (lng * HALF_WORLD_M) / 180,
    (Math.log(Math.tan(((90 + clamped) * Math.PI) / 360)) * HALF_WORLD_M) / Math.PI,
  ]
}

/** The zoom whose tile pixels are about the raster's own ground pixels (at its latitude). */
export function nativeZoom(gsdCm: number | null, latitude: number) {
  if (!gsdCm || gsdCm <= 0) return 20
  const groundPerPixelAtZero = ((2 * HALF_WORLD_M) / TILE_SIZE) * Math.cos((latitude * Math.PI) / 180)
  return Math.max(
    0,
    Math.min(MAX_ZOOM - ZOOM_PAST_NATIVE, Math.ceil(Math.log2(groundPerPixelAtZero / (gsdCm / 100)))),
  )
}

export type TileSource = {
  fileId: number
  /** The viewing copy on local disk. */
  path: string
  /** `elevation`: one band of heights, coloured on `range`; `image`: drawn as it is. */
  draw: 'elevation' | 'image'
  range: HeightRange | null
  /** [west, south, east, north] in WGS84. */
  boundsWgs84: [number, number, number, number]
  maxZoom: number
  /** Names the cache folder: one per copy (full or reduced). */
  variant: 'full' | 'reduced'
}

export type TileAnswer = { png: string } | { empty: true }

/**
 * The PNG of one tile, drawn once and then read from the cache; `{ empty }` when the tile misses
 * the raster. 404 past the finest zoom.
 */
export async function tileOf(
  source: TileSource,
  address: TileAddress,
  { owner, signal }: { owner: GdalOwner; signal?: AbortSignal },
): Promise<TileAnswer> {
  if (address.z > source.maxZoom) throw new DomainError(404, TILE_MESSAGES.tooDeep)
  const [minX, minY, maxX, maxY] = tileBounds(address)
  const [west, south, east, north] = source.boundsWgs84
  const [rasterMinX, rasterMinY] = mercator(west, south)
  const [rasterMaxX, rasterMaxY] = mercator(east, north)
  if (maxX <= rasterMinX || minX >= rasterMaxX || maxY <= rasterMinY || minY >= rasterMaxY)
    return { empty: true }

  const views = ensureStorage().views
  const cached = path.join(
    views,
    String(source.fileId),
    'xyz',
    source.variant,
    String(address.z),
    String(address.x),
    `${address.y}.png`,
  )
  if (
    await fs.stat(cached).then(
      () => true,
      () => false,
    )
  )
    return { png: cached }

  const work = path.join(ensureStorage().tmp, `tile-${crypto.randomUUID()}`)
  await fs.mkdir(work)
  try {
    const run = (tool: string, args: string[]) =>
      runGdal(tool, args, { owner, signal, timeoutMs: TILE_TIMEOUT_MS })
    const extent = [
      '-te',
      String(minX),
      String(minY),
      String(maxX),
      String(maxY),
      '-ts',
      String(TILE_SIZE),
      String(TILE_SIZE),
    ]
    const warped = path.join(work, 'tile.tif')
    const png = path.join(work, 'tile.png')
    // Elevation keeps its no-data value for the colour ramp; imagery gets an alpha band.
    const warp = (outside: string[]) =>
      run('gdalwarp', [
        '-q',
        '-t_srs',
        'EPSG:3857',
        ...extent,
        '-r',
        'bilinear',
        ...outside,
        source.path,
        warped,
      ])
    if (source.draw === 'elevation') {
      await warp(['-dstnodata', '-99999'])
      const ramp = path.join(work, 'ramp.txt')
      await fs.writeFile(ramp, gdalColourFile(source.range))
      await run('gdaldem', ['color-relief', '-q', '-alpha', '-of', 'PNG', warped, ramp, png])
    } else {
      await warp(['-dstalpha'])
      await run('gdal_translate', ['-q', '-of', 'PNG', warped, png])
    }
    await fs.mkdir(path.dirname(cached), { recursive: true })
    await fs.rename(png, cached)
    return { png: cached }
  } catch (error) {
    if (error instanceof DomainError) throw error
    if (error instanceof GdalError && error.aborted) throw new DomainError(400, TILE_MESSAGES.failed)
    throw new DomainError(422, TILE_MESSAGES.failed)
  } finally {
    await fs.rm(work, { recursive: true, force: true })
  }
}

export type WmtsLayer = {
  id: number
  title: string
  boundsWgs84: [number, number, number, number]
  maxZoom: number
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  )

/**
 * WMTS 1.0.0 capabilities (REST, GoogleMapsCompatible): one layer per raster, its tiles at
 * `{tileBase}/{fileId}/{TileMatrix}/{TileCol}/{TileRow}.png`.
 */
export function wmtsCapabilities(title: string, tileBase: string, layers: WmtsLayer[]) {
  const deepest = Math.max(0, ...layers.map((l) => l.maxZoom))
  const matrices = Array.from({ length: deepest + 1 }, (_, z) => {
    const span = 2 ** z
    // OGC's scale denominator: metres per pixel over 0.28 mm standard pixels.
    const scale = (2 * HALF_WORLD_M) / TILE_SIZE / span / 0.00028
    return `<TileMatrix><ows:Identifier>${z}</ows:Identifier><ScaleDenominator>${scale}</ScaleDenominator><TopLeftCorner>${-HALF_WORLD_M} ${HALF_WORLD_M}</TopLeftCorner><TileWidth>${TILE_SIZE}</TileWidth><TileHeight>${TILE_SIZE}</TileHeight><MatrixWidth>${span}</MatrixWidth><MatrixHeight>${span}</MatrixHeight></TileMatrix>`
  })
  const layerXml = layers.map(
    (layer) =>
      `<Layer><ows:Title>${escapeXml(layer.title)}</ows:Title><ows:WGS84BoundingBox><ows:LowerCorner>${layer.boundsWgs84[0]} ${layer.boundsWgs84[1]}</ows:LowerCorner><ows:UpperCorner>${layer.boundsWgs84[2]} ${layer.boundsWgs84[3]}</ows:UpperCorner></ows:WGS84BoundingBox><ows:Identifier>file-${layer.id}</ows:Identifier><Style isDefault="true"><ows:Identifier>default</ows:Identifier></Style><Format>image/png</Format><TileMatrixSetLink><TileMatrixSet>GoogleMapsCompatible</TileMatrixSet><TileMatrixSetLimits>${Array.from(
        { length: layer.maxZoom + 1 },
        (_, z) =>
          `<TileMatrixLimits><TileMatrix>${z}</TileMatrix><MinTileRow>0</MinTileRow><MaxTileRow>${2 ** z - 1}</MaxTileRow><MinTileCol>0</MinTileCol><MaxTileCol>${2 ** z - 1}</MaxTileCol></TileMatrixLimits>`,
      ).join(
        '',
      )}</TileMatrixSetLimits></TileMatrixSetLink><ResourceURL format="image/png" resourceType="tile" template="${escapeXml(`${tileBase}/${layer.id}/{TileMatrix}/{TileCol}/{TileRow}.png`)}"/></Layer>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>
<Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.0.0">
<ows:ServiceIdentification><ows:Title>${escapeXml(title)}</ows:Title><ows:ServiceType>OGC WMTS</ows:ServiceType><ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion></ows:ServiceIdentification>
<Contents>
${layerXml.join('\n')}
<TileMatrixSet><ows:Identifier>GoogleMapsCompatible</ows:Identifier><ows:SupportedCRS>urn:ogc:def:crs:EPSG::3857</ows:SupportedCRS><WellKnownScaleSet>urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible</WellKnownScaleSet>${matrices.join('')}</TileMatrixSet>
</Contents>
</Capabilities>
`
}
