/**
 * The flight plan's survey areas as files a pilot loads into a ground station or
 * Google Earth: GeoJSON (a FeatureCollection of polygons, one per area) and KML (one
 * placemark per area). Small on purpose: the survey engine may add flight lines to it.
 */
import { rewind } from '@turf/turf'
import { areasToFeatureCollection, closedRing } from '#app/domain/geometry/areas.ts'
import { formatSquareMetres } from '#app/lib/format/numbers.ts'

import type { FlightPlanView } from '../flight-plan/flight-plan.ts'

/** The survey areas alone, at /api/projects/{id}/flight-plan/{format}; the mission files are survey/export-formats.server.ts. */
export const FLIGHT_PLAN_FILE_FORMATS = {
  geojson: { contentType: 'application/geo+json', extension: 'geojson' },
  kml: { contentType: 'application/vnd.google-earth.kml+xml', extension: 'kml' },
} as const
export type FlightPlanFileFormat = keyof typeof FLIGHT_PLAN_FILE_FORMATS

export function isFlightPlanFileFormat(value: unknown): value is FlightPlanFileFormat {
  return typeof value === 'string' && Object.hasOwn(FLIGHT_PLAN_FILE_FORMATS, value)
}

type Areas = FlightPlanView['areas']

function xml(value: string) {
  return value.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  )
}

/** `flightPattern`: the survey plan's own words; the stored text may predate a change. */
export function flightPlanGeoJson(projectName: string, areas: Areas, flightPattern: string | null) {
  // RFC 7946 §3.1.6: outer rings counter-clockwise, holes clockwise, whatever order the client drew.
  const collection = rewind(
    areasToFeatureCollection(areas.map((a) => ({ coordinates: a.points }))),
  ) as ReturnType<typeof areasToFeatureCollection>
  collection.features.forEach((feature, i) => {
    const area = areas[i]!
    feature.properties = {
      name: `${projectName} – Area ${area.areaNumber}`,
      areaNumber: area.areaNumber,
      areaSqm: area.area,
      flightPattern: flightPattern ?? area.flightPattern,
      returnToBase: area.returnToBase,
    }
  })
  return collection
}

export function flightPlanKml(projectName: string, areas: Areas, flightPattern: string | null) {
  const placemarks = areas
    .map((area) => {
      const ring = closedRing(area.points)
        .map(([lng, lat]) => `${lng},${lat},0`)
        .join(' ')
      const description = [
        area.area ? formatSquareMetres(area.area) : null,
        flightPattern ?? area.flightPattern,
        area.returnToBase ? `Return to base: ${area.returnToBase}` : null,
      ]
        .filter(Boolean)
        .join(' · ')
      return `    <Placemark>
      <name>${xml(`Area ${area.areaNumber}`)}</name>
      <description>${xml(description)}</description>
      <styleUrl>#survey-area</styleUrl>
      <Polygon><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon>
    </Placemark>`
    })
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2">
  <Document>
    <name>${xml(projectName)}</name>
    <Style id="survey-area"><LineStyle><color>ff4db8fc</color><width>3</width></LineStyle><PolyStyle><color>400b7cf5</color></PolyStyle></Style>
${placemarks}
  </Document>
</kml>
`
}

/** A file name for the download: the project name made safe, plus the extension. */
export function exportFileName(projectName: string, format: FlightPlanFileFormat) {
  const base =
    projectName
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'flight-plan'
  return `${base}-flight-plan.${FLIGHT_PLAN_FILE_FORMATS[format].extension}`
}
