import { describe, expect, test } from 'vitest'

import {
  coordinateGrid,
  gridLabel,
  nearestTown,
  provinceLabels,
  townsInView,
  type GazetteerPlace,
} from './offline-base.ts'

const PLACES: GazetteerPlace[] = [
  { name: 'Stellenbosch', province: 'Western Cape', lat: -33.9346, lng: 18.8668 },
  { name: 'Paarl', province: 'Western Cape', lat: -33.7342, lng: 18.9621 },
  { name: 'Kimberley', province: 'Northern Cape', lat: -28.7323, lng: 24.7623 },
  { name: 'Upington', province: 'Northern Cape', lat: -28.4478, lng: 21.2561 },
]

describe('coordinateGrid', () => {
  test('a site view gets a few lines on round values, printed to their step', () => {
    const grid = coordinateGrid({ south: -33.95, west: 18.84, north: -33.92, east: 18.89 })
    expect(grid.step).toBe(0.01)
    expect(grid.decimals).toBe(2)
    expect(grid.latitudes).toEqual([-33.95, -33.94, -33.93, -33.92])
    expect(grid.longitudes).toEqual([18.84, 18.85, 18.86, 18.87, 18.88, 18.89])
  })

  test('the whole country gets whole degrees or more', () => {
    const grid = coordinateGrid({ south: -35, west: 16, north: -22, east: 33 })
    expect(grid.step).toBe(5)
    expect(grid.decimals).toBe(0)
    expect(grid.longitudes).toEqual([20, 25, 30])
  })

  test('never more than a handful of lines, however small the view', () => {
    const grid = coordinateGrid({ south: -33.93, west: 18.86, north: -33.92995, east: 18.86005 })
    expect(grid.latitudes.length).toBeLessThanOrEqual(6)
    expect(grid.longitudes.length).toBeLessThanOrEqual(6)
  })
})

test('grid labels use the decimal comma and the hemisphere', () => {
  expect(gridLabel(-33.93, 'lat', 2)).toBe('33,93° S')
  expect(gridLabel(18.86, 'lng', 2)).toBe('18,86° E')
  expect(gridLabel(0, 'lat', 0)).toBe('0°')
})

describe('towns and provinces', () => {
  test('towns show from zoom 8, nearest the middle first', () => {
    const view = { south: -34.2, west: 18.5, north: -33.6, east: 19.2 }
    expect(townsInView(PLACES, view, 7)).toEqual([])
    expect(townsInView(PLACES, view, 10).map((t) => t.name)).toEqual(['Stellenbosch', 'Paarl'])
  })

  test('a crowded view names at most 40 towns', () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      name: `Town ${i}`,
      province: null,
      lat: -34 + (i % 25) * 0.01,
      lng: 18 + Math.floor(i / 25) * 0.01,
    }))
    const picked = townsInView(many, { south: -34.1, west: 17.9, north: -33.7, east: 18.3 }, 10)
    expect(picked.length).toBeLessThanOrEqual(40)
    expect(picked.length).toBeGreaterThan(10)
  })

  test('provinces are named in the middle of their towns', () => {
    expect(provinceLabels(PLACES)).toEqual([
      { name: 'Western Cape', lat: (-33.9346 + -33.7342) / 2, lng: (18.8668 + 18.9621) / 2 },
      { name: 'Northern Cape', lat: (-28.7323 + -28.4478) / 2, lng: (24.7623 + 21.2561) / 2 },
    ])
  })

  test('the nearest town and its distance', () => {
    const near = nearestTown(PLACES, -33.95, 18.86)
    expect(near?.place.name).toBe('Stellenbosch')
    expect(near?.km).toBeGreaterThan(1.5)
    expect(near?.km).toBeLessThan(2)
  })
})
