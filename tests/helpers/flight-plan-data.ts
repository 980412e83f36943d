/**
 * Stored flight plans for test data (`projects.polygon_geojson`, as the planner writes it).
 * Pure data: the vitest helpers and the Playwright fixtures both use it.
 */

/** A three-point area near Stellenbosch between two latitudes (18,86°–18,87° E). */
export function sampleFlightArea(areaNumber: number, area: number, [north, south]: [number, number]) {
  return {
    areaNumber,
    area,
    coordinates: [
      { pointNumber: 1, latitude: north, longitude: 18.86 },
      { pointNumber: 2, latitude: north, longitude: 18.87 },
      { pointNumber: 3, latitude: south, longitude: 18.87 },
    ],
    pilotInstructions: { flightPattern: 'Grid', returnToBase: 'Point 1', boundaryPoints: 3 },
  }
}

/** An agricultural survey at Stellenbosch made of these areas. */
export function sampleFlightPlan(areas: Array<ReturnType<typeof sampleFlightArea>>) {
  return {
    address: 'Stellenbosch, Western Cape',
    projectType: 'agricultural-mapping',
    totalArea: areas.reduce((sum, a) => sum + a.area, 0),
    areas,
  }
}
