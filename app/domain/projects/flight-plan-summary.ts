/**
 * Reading the stored flight plan (projects.polygon_geojson) for display.
 * Old or hand-made rows may hold anything, so every field is optional and a plan that
 * cannot be parsed is reported as such instead of throwing.
 */
export interface FlightPlanArea {
  areaNumber: number
  areaSqm: number | null
  points: number
  flightPattern: string | null
  returnToBase: string | null
}

export type FlightPlanSummary =
  | { status: 'none' }
  | { status: 'unparseable' }
  | {
      status: 'ok'
      areas: FlightPlanArea[]
      totalAreaSqm: number | null
      projectType: string | null
      requirements: string | null
    }

export const FLIGHT_PLAN_UNPARSEABLE = 'Flight plan data available but could not be parsed for display'

const num = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : null
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null)

export function summariseFlightPlan(raw: string | null | undefined): FlightPlanSummary {
  if (!raw) return { status: 'none' }
  let plan: unknown
  try {
    plan = JSON.parse(raw)
    if (typeof plan === 'string') plan = JSON.parse(plan)
  } catch {
    return { status: 'unparseable' }
  }
  if (!plan || typeof plan !== 'object') return { status: 'unparseable' }
  const p = plan as Record<string, unknown>
  const rawAreas = Array.isArray(p.areas) ? p.areas : []
  const areas = rawAreas.map((a, i): FlightPlanArea => {
    const area = (a ?? {}) as Record<string, unknown>
    const instructions = (area.pilotInstructions ?? {}) as Record<string, unknown>
    return {
      areaNumber: num(area.areaNumber) ?? i + 1,
      areaSqm: num(area.area),
      points: Array.isArray(area.coordinates) ? area.coordinates.length : 0,
      flightPattern: str(instructions.flightPattern),
      returnToBase: str(instructions.returnToBase),
    }
  })
  return {
    status: 'ok',
    areas,
    totalAreaSqm: num(p.totalArea),
    projectType: str(p.projectType),
    requirements: str(p.requirements),
  }
}
