/**
 * A GeoTIFF's facts from `gdalinfo -json`: EPSG code, size, bands, data type,
 * nodata, ground sample distance, footprint in WGS84 (GDAL's own `wgs84Extent`, so UTM
 * 34S/35S and the south-orientated Hartebeesthoek94 "Lo" grids are placed by GDAL, never
 * by our reading of tie points), its area in hectares, and how much of the project's
 * survey areas it covers.
 */
import * as turf from '@turf/turf'
import { closedRing, type SurveyArea } from '#app/domain/geometry/areas.ts'
import type { DeliverableKind, RasterInfo } from '#db/schema.ts'
import type { Feature, MultiPolygon, Polygon } from 'geojson'

import { GdalError, runGdal, type GdalOwner } from './gdal.server.ts'

interface GdalBand {
  type: string
  noDataValue?: number | string
  colorInterpretation?: string
}

export interface GdalInfo {
  size: [number, number]
  geoTransform?: number[]
  coordinateSystem?: { wkt?: string }
  wgs84Extent?: { type: 'Polygon'; coordinates: [number, number][][] }
  bands: GdalBand[]
  stac?: { 'proj:epsg'?: number | null }
  metadata?: { IMAGE_STRUCTURE?: Record<string, string> }
}

export async function gdalInfoJson(
  file: string,
  { owner, extra = [], signal }: { owner: GdalOwner; extra?: string[]; signal?: AbortSignal },
): Promise<GdalInfo> {
  const out = await runGdal('gdalinfo', ['-json', ...extra, file], { owner, timeoutMs: 120_000, signal })
  try {
    return JSON.parse(out) as GdalInfo
  } catch {
    throw new GdalError('gdalinfo: unreadable answer')
  }
}

function epsgOf(info: GdalInfo): number | null {
  const fromStac = info.stac?.['proj:epsg']
  if (typeof fromStac === 'number') return fromStac
  // WKT2 ends with the CRS's own identifier.
  const match = /ID\["EPSG",(\d{4,6})\]\]\s*$/.exec(info.coordinateSystem?.wkt ?? '')
  return match ? Number(match[1]) : null
}

/** Pixel size in centimetres: metres × the CRS's unit, or degrees turned into metres at the centre. */
function gsdCmOf(info: GdalInfo, centreLat: number): number | null {
  const gt = info.geoTransform
  const wkt = info.coordinateSystem?.wkt ?? ''
  if (!gt || !wkt) return null
  const pixel = Math.sqrt(gt[1]! ** 2 + gt[2]! ** 2)
  if (/^\s*GEOG(CRS|CS)\[/.test(wkt)) {
    return Math.round(pixel * 111_320 * Math.cos((centreLat * Math.PI) / 180) * 100 * 100) / 100
  }
  const units = [...wkt.matchAll(/LENGTHUNIT\["[^"]*",([\d.eE+-]+)/g)]
  const factor = units.length ? Number(units[units.length - 1]![1]) : 1
  return Math.round(pixel * factor * 100 * 100) / 100
}

function noDataOf(band: GdalBand | undefined): number | null {
  if (band?.noDataValue === undefined) return null
  const value = Number(band.noDataValue)
  return Number.isFinite(value) ? value : null
}

/** Share (0–100, one decimal) of the survey areas inside the footprint; null without areas. */
function overlapPercentOf(footprint: [number, number][], areas: SurveyArea[]): number | null {
  const polygons = areas
    .filter((a) => a.coordinates.length >= 3)
    .map((a) => turf.polygon([closedRing(a.coordinates)]))
  if (!polygons.length) return null
  const survey: Feature<Polygon | MultiPolygon> | null =
    polygons.length === 1 ? polygons[0]! : turf.union(turf.featureCollection(polygons))
  if (!survey) return null
  const surveyArea = turf.area(survey)
  if (surveyArea <= 0) return null
  const inside = turf.intersect(turf.featureCollection([survey, turf.polygon([footprint])]))
  const share = inside ? (turf.area(inside) / surveyArea) * 100 : 0
  return Math.round(Math.min(100, share) * 10) / 10
}

/** RasterInfo from gdalinfo; throws GdalError when GDAL cannot read it or it has no place on Earth. */
export async function readRasterInfo(
  file: string,
  areas: SurveyArea[],
  owner: GdalOwner,
): Promise<RasterInfo> {
  const info = await gdalInfoJson(file, { owner })
  const ring = info.wgs84Extent?.coordinates?.[0]
  if (!ring || ring.length < 4)
    throw new GdalError('gdalinfo: the raster has no coordinate system or position')
  const footprint = ring.map(([lng, lat]) => [lng, lat] as [number, number])
  const lngs = footprint.map((p) => p[0])
  const lats = footprint.map((p) => p[1])
  const bounds: [number, number, number, number] = [
    Math.min(...lngs),
    Math.min(...lats),
    Math.max(...lngs),
    Math.max(...lats),
  ]
  return {
    epsg: epsgOf(info),
    widthPx: info.size[0],
    heightPx: info.size[1],
    bandCount: info.bands.length,
    dataType: info.bands[0]?.type ?? 'Unknown',
    nodata: noDataOf(info.bands[0]),
    gsdCm: gsdCmOf(info, (bounds[1] + bounds[3]) / 2),
    boundsWgs84: bounds,
    footprintWgs84: footprint,
    footprintHa: Math.round((turf.area(turf.polygon([footprint])) / 10_000) * 1000) / 1000,
    overlapPercent: overlapPercentOf(footprint, areas),
  }
}

/** Single band Float32/Int16 (and other non-byte single bands) → elevation; 3–4 band 8-bit → orthomosaic. */
export function kindOfRaster(info: Pick<RasterInfo, 'bandCount' | 'dataType'>): DeliverableKind {
  if (info.bandCount === 1 && info.dataType !== 'Byte') return 'elevation'
  if ((info.bandCount === 3 || info.bandCount === 4) && info.dataType === 'Byte') return 'orthomosaic'
  return 'image'
}
