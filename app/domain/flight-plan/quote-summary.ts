/**
 * The 'Project Quote' dialog's figures from a priced flight plan: the breakdown, the survey's
 * time and photos, and the promises on scheduling, delivery and availability.
 */
import { repeatDiscountLabel } from '#app/domain/pricing/vat.ts'
import { formatKm } from '#app/lib/format/numbers.ts'

import type { FlightPlan } from './flight-plan.ts'

const FLIGHT_MINUTES_PER_AREA = 15
const FLIGHT_SCHEDULING = 'Flight scheduled within 8 to 12 business days'
const DATA_DELIVERY = 'Delivery 5 to 7 business days after data collection'
const DATA_AVAILABILITY = 'Data downloadable for 1 month'

/** What the 'Project Quote' dialog shows. */
export interface QuoteSummary {
  projectId: number
  projectName: string
  totalArea: number
  totalAreaHectares: number
  totalInCents: number
  breakdown: Array<{ label: string; cents: number; note?: string }>
  subtotal: number
  vatAmount: number
  surveyAreas: number
  flightTimeMinutes: number
  /** From the stored survey mission; null for projects quoted before missions existed. */
  survey: { photoCount: number; batteries: number; gsdCm: number; altitudeM: number } | null
  scheduling: string
  delivery: string
  availability: string
  validUntil: string
  nearestHub: string | null
  distanceFromHub: number | null
  airspaceZone: string | null
  warnings: string[]
  isPaid: boolean
}

export function summariseQuote(
  project: { id: number; name: string; isPaid: boolean },
  plan: Pick<FlightPlan, 'areas' | 'totalArea' | 'totalAreaHectares' | 'pricing' | 'validUntil'>,
  survey: {
    flightTimeS: number
    photoCount: number
    batteries: number
    gsdCm: number
    altitudeM: number
  } | null = null,
): QuoteSummary {
  const p = plan.pricing
  const distance = p.distanceFromHub === null ? null : Math.round(p.distanceFromHub * 10) / 10
  const breakdown: QuoteSummary['breakdown'] = [
    {
      label: 'Survey (area-adjusted price)',
      cents: p.adjustedPrice,
      note: p.adjustedPrice > p.basePrice ? 'Area rate above the tier minimum' : 'Tier minimum price',
    },
    {
      label: 'Travel fee',
      cents: p.travelFee,
      note: p.nearestHub
        ? `From ${p.nearestHub}${distance === null ? '' : ` (${formatKm(distance)})`}`
        : undefined,
    },
    {
      label: 'Aviation fee',
      cents: p.aviationFee,
      note: p.airspaceZone ? p.airspaceZone : 'No fee-bearing airspace',
    },
  ]
  if (p.repeatDiscount)
    breakdown.push({
      label: repeatDiscountLabel(p.repeatDiscountPercent ?? 0),
      cents: -p.repeatDiscount,
      note: 'Off the survey price',
    })
  return {
    projectId: project.id,
    projectName: project.name,
    totalArea: plan.totalArea,
    totalAreaHectares: plan.totalAreaHectares,
    totalInCents: p.totalInCents,
    breakdown,
    subtotal: p.subtotal,
    vatAmount: p.vatAmount,
    surveyAreas: plan.areas.length,
    // The survey engine's time; older plans without a mission keep the flat estimate.
    flightTimeMinutes: survey
      ? Math.ceil(survey.flightTimeS / 60)
      : plan.areas.length * FLIGHT_MINUTES_PER_AREA,
    survey: survey
      ? {
          photoCount: survey.photoCount,
          batteries: survey.batteries,
          gsdCm: survey.gsdCm,
          altitudeM: survey.altitudeM,
        }
      : null,
    scheduling: FLIGHT_SCHEDULING,
    delivery: DATA_DELIVERY,
    availability: DATA_AVAILABILITY,
    validUntil: plan.validUntil,
    nearestHub: p.nearestHub,
    distanceFromHub: distance,
    airspaceZone: p.airspaceZone,
    warnings: p.warnings,
    isPaid: project.isPaid,
  }
}
