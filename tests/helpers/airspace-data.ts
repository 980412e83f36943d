import type { NewZone } from '#app/domain/airspace/airspace.server.ts'

/** A small controlled zone off Cape Town, as an admin's KML upload would add it. */
export function sampleZone(zoneName: string): NewZone {
  return {
    zoneName,
    zoneType: 'Controlled',
    color: '#2563eb',
    aviationFee: 85000,
    polygon: {
      type: 'Polygon',
      coordinates: [
        [
          [18, -33],
          [18.1, -33],
          [18.1, -33.1],
          [18, -33],
        ],
      ],
    },
  }
}
