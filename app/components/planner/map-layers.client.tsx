/**
 * The planner map's overlays: airspace zones (CTR orange, ATZ red, TMA yellow), the static
 * no-fly KML, and the hook that hands the Leaflet map to the workspace. Browser only.
 */
import { kml } from '@tmcw/togeojson'
import { NO_FLY_OVERLAY_COLOR } from '#app/domain/airspace/zone-kinds.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import type { FeatureCollection } from 'geojson'
import type L from 'leaflet'
import { useEffect, useMemo, useState } from 'react'
import { GeoJSON, useMap } from 'react-leaflet'

export interface MapZone {
  id: number
  zoneName: string
  zoneType: string
  color: string
  aviationFee: number
  polygon: GeoJSON.Geometry
}

/** The planner's zone colours (CTR orange, ATZ red, TMA yellow); others keep their own. */
function zoneColour(zone: Pick<MapZone, 'zoneType' | 'color'>) {
  switch (zone.zoneType) {
    case 'CTR':
      return '#f97316'
    case 'ATZ':
      return '#ef4444'
    case 'TMA':
      return '#eab308'
    default:
      return zone.color || '#3b82f6'
  }
}

export function ExposeMap({ onMap }: { onMap: (map: L.Map | null) => void }) {
  const map = useMap()
  useEffect(() => {
    onMap(map)
    return () => onMap(null)
  }, [map, onMap])
  return null
}

/** The static no-fly overlay (public/no-fly-zones.kml), parsed here with togeojson. */
export function NoFlyOverlay() {
  const [data, setData] = useState<FeatureCollection | null>(null)
  useEffect(() => {
    let cancelled = false
    fetch('/no-fly-zones.kml')
      .then((response) =>
        response.ok ? response.text() : Promise.reject(new Error(String(response.status))),
      )
      .then((text) => {
        const doc = new DOMParser().parseFromString(text, 'text/xml')
        if (!cancelled) setData(kml(doc) as FeatureCollection)
      })
      // Map overlay failures are only logged.
      .catch((error) => console.warn('[planner] no-fly overlay unavailable', error))
    return () => {
      cancelled = true
    }
  }, [])
  if (!data) return null
  return (
    <GeoJSON
      data={data}
      interactive={false}
      style={{
        color: NO_FLY_OVERLAY_COLOR,
        weight: 1.5,
        dashArray: '6 4',
        fillColor: NO_FLY_OVERLAY_COLOR,
        fillOpacity: 0.12,
      }}
    />
  )
}

export function ZonesLayer({ zones, interactive }: { zones: MapZone[]; interactive: boolean }) {
  const collection = useMemo<FeatureCollection>(
    () => ({
      type: 'FeatureCollection',
      features: zones.map((zone) => ({
        type: 'Feature',
        properties: {
          zoneName: zone.zoneName,
          zoneType: zone.zoneType,
          color: zoneColour(zone),
          fee: zone.aviationFee,
        },
        geometry: zone.polygon,
      })),
    }),
    [zones],
  )
  return (
    <GeoJSON
      // Re-create when interactivity changes: Leaflet reads it once per layer.
      key={`${zones.length}-${interactive}`}
      data={collection}
      interactive={interactive}
      style={(feature) => ({
        color: feature?.properties?.color ?? '#3b82f6',
        weight: 1.5,
        fillColor: feature?.properties?.color ?? '#3b82f6',
        fillOpacity: 0.12,
      })}
      onEachFeature={(feature, layer) => {
        if (!interactive) return
        const p = feature.properties as { zoneName: string; zoneType: string; fee: number }
        // Zone names come from uploaded KML: text only, never HTML (Leaflet sets a string as innerHTML).
        const label = document.createElement('span')
        label.textContent = `${p.zoneName} (${p.zoneType})${p.fee ? ` · ${formatRand(p.fee)}` : ''}`
        layer.bindTooltip(label, { sticky: true })
      }}
    />
  )
}
