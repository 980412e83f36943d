/**
 * The Contours layer on the map: each elevation model's contour lines that are switched on,
 * fetched from the contours call as WGS84 GeoJSON only then (a change of interval or switching
 * off aborts the fetch), index lines heavier and labelled with their height (neighbouring
 * labels a quarter of the way round from each other; one over another hidden until zoomed in).
 */
import L from 'leaflet'
import { useEffect } from 'react'
import { useMap } from 'react-leaflet'

import { contourLabel, labelFraction, lineLength, pointAlong, unclutteredLabels } from './contour-labels.ts'
import { readApiError } from './map-kit/read-error.ts'
import type { ContourStatus, ContourView } from './use-contours.ts'

const CONTOUR_COLOUR = '#3b2a1a'
const LABEL_CLASSES =
  '!rounded !border-0 !bg-white/80 !px-1 !py-0 !text-[11px] !font-semibold !leading-4 !text-ink-900 !shadow-none'
const CONTOURS_FAILED = 'The contours could not be drawn.'

type ContourFeature = GeoJSON.Feature<
  GeoJSON.LineString | GeoJSON.MultiLineString,
  { elevation: number; index: boolean }
>

/** A contour's line (a multi-line's first part: one label a feature). */
const firstLine = (geometry: ContourFeature['geometry']) =>
  geometry.type === 'LineString' ? geometry.coordinates : (geometry.coordinates[0] ?? [])

function ContourLines({
  projectId,
  fileId,
  interval,
  onStatus,
}: {
  projectId: number
  fileId: number
  interval: number
  onStatus: (fileId: number, status: ContourStatus) => void
}) {
  const map = useMap()
  useEffect(() => {
    const controller = new AbortController()
    let group: L.LayerGroup | null = null
    let unclutter: (() => void) | null = null
    onStatus(fileId, { kind: 'drawing' })
    void (async () => {
      try {
        const response = await fetch(
          `/api/projects/${projectId}/deliverables/${fileId}/contours?interval=${interval}&format=geojson&crs=wgs84`,
          { signal: controller.signal },
        )
        if (!response.ok)
          return onStatus(fileId, { kind: 'error', message: await readApiError(response, CONTOURS_FAILED) })
        const data = (await response.json()) as GeoJSON.FeatureCollection
        if (controller.signal.aborted) return
        const features = data.features as ContourFeature[]
        const lines = L.geoJSON(data, {
          interactive: false,
          style: (feature) => ({
            className: feature?.properties.index ? 'contour-line contour-index' : 'contour-line',
            color: CONTOUR_COLOUR,
            weight: feature?.properties.index ? 2.5 : 1,
            opacity: feature?.properties.index ? 0.95 : 0.7,
          }),
        })
        const labels = features
          .filter((f) => f.properties.index && firstLine(f.geometry).length)
          // The longest lines' labels first: they win where labels would overlap.
          .sort((a, b) => lineLength(firstLine(b.geometry)) - lineLength(firstLine(a.geometry)))
          .map((f) => {
            const { elevation } = f.properties
            const [lng, lat] = pointAlong(firstLine(f.geometry), labelFraction(elevation, interval))
            return L.tooltip({
              permanent: true,
              direction: 'center',
              // A small label on the line, not Leaflet's boxed tooltip.
              className: `contour-label-${fileId} ${LABEL_CLASSES}`,
            })
              .setLatLng([lat, lng])
              .setContent(contourLabel(elevation, interval))
          })
        group = L.layerGroup([lines, ...labels]).addTo(map)
        // Close rings' labels would stack at a low zoom: those over another wait for a closer look.
        unclutter = () => {
          const elements = labels.map((label) => label.getElement()).filter((e) => e !== undefined)
          const boxes = elements.map((element) => element.getBoundingClientRect())
          unclutteredLabels(boxes).forEach((shown, i) => {
            elements[i]!.style.visibility = shown ? '' : 'hidden'
          })
        }
        unclutter()
        map.on('zoomend', unclutter)
        onStatus(fileId, {
          kind: 'shown',
          lines: features.length,
          indexLines: features.filter((f) => f.properties.index).length,
        })
      } catch {
        if (!controller.signal.aborted) onStatus(fileId, { kind: 'error', message: CONTOURS_FAILED })
      }
    })()
    return () => {
      controller.abort()
      if (unclutter) map.off('zoomend', unclutter)
      group?.remove()
    }
  }, [map, projectId, fileId, interval, onStatus])
  return null
}

/** Every elevation model's contour lines that are on, while its layer shows. */
export function ContourLayers({ contours, layerIds }: { contours: ContourView; layerIds: number[] }) {
  return layerIds
    .filter((id) => contours.shownOf(id))
    .map((id) => (
      <ContourLines
        key={`${id}-${contours.intervalOf(id)}`}
        projectId={contours.projectId}
        fileId={id}
        interval={contours.intervalOf(id)}
        onStatus={contours.onStatus}
      />
    ))
}
