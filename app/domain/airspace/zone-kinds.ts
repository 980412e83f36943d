/**
 * What an airspace zone means for a quote: its display type,
 * kind, colour, aviation fee and whether it needs SACAA/ATC approval. Shared by the
 * loader (national dataset), the admin's KML upload and the planner legend.
 */

type ZoneKind =
  | 'controlled'
  | 'restricted'
  | 'prohibited'
  | 'or-tambo-buffer'
  | 'danger'
  | 'airway'
  | 'gliding'
  | 'parachute'

/** Fees in cents by kind: controlled/restricted/prohibited R850, buffer R150, danger R0. */
const ZONE_KIND_FEES: Record<ZoneKind, number> = {
  controlled: 85000,
  restricted: 85000,
  prohibited: 85000,
  'or-tambo-buffer': 15000,
  danger: 0,
  airway: 0,
  gliding: 0,
  parachute: 0,
}

export const APPROVAL_WARNING = 'Needs SACAA/ATC approval — may delay or prevent the flight'

/** Display types and their map colours (planner: CTR orange, ATZ red, TMA yellow). */
export const ZONE_TYPE_COLORS = {
  CTR: '#f97316',
  ATZ: '#ef4444',
  TMA: '#eab308',
  CTA: '#3b82f6',
  Restricted: '#a855f7',
  Prohibited: '#991b1b',
  Danger: '#dc2626',
  Airway: '#64748b',
  Gliding: '#14b8a6',
  Parachute: '#0ea5e9',
  Controlled: '#2563eb',
  'OR Tambo Buffer': '#facc15',
} as const
type ZoneType = keyof typeof ZONE_TYPE_COLORS

/** The legend's colour for "clear airspace" (no zone touched). */
export const CLEAR_AIRSPACE_COLOR = '#10b981'
/** The static no-fly overlay's outline (dashed on the map). */
export const NO_FLY_OVERLAY_COLOR = '#b91c1c'

export interface ZoneLegendItem {
  zoneType: ZoneType
  color: string
  description: string
  /** Cents, for a zone from the ground up; TMAs start high above ground, so 0. */
  aviationFee: number
}

/** The one airspace legend (planner 'Airspace Zones' tab, admin Airspace tab): map colours and fees. */
export const ZONE_LEGEND: ZoneLegendItem[] = [
  {
    zoneType: 'CTR',
    color: ZONE_TYPE_COLORS.CTR,
    description: 'Control zone around an airport, from the ground up. Needs ATC coordination.',
    aviationFee: ZONE_KIND_FEES.controlled,
  },
  {
    zoneType: 'ATZ',
    color: ZONE_TYPE_COLORS.ATZ,
    description: 'Aerodrome traffic zone.',
    aviationFee: ZONE_KIND_FEES.controlled,
  },
  {
    zoneType: 'TMA',
    color: ZONE_TYPE_COLORS.TMA,
    description: 'Terminal area; its floor is high above ground, so no fee.',
    aviationFee: 0,
  },
  {
    zoneType: 'Restricted',
    color: ZONE_TYPE_COLORS.Restricted,
    description: 'Restricted area: needs approval.',
    aviationFee: ZONE_KIND_FEES.restricted,
  },
  {
    zoneType: 'Prohibited',
    color: ZONE_TYPE_COLORS.Prohibited,
    description: 'Prohibited area: needs approval.',
    aviationFee: ZONE_KIND_FEES.prohibited,
  },
  {
    zoneType: 'Danger',
    color: ZONE_TYPE_COLORS.Danger,
    description: 'Danger area: flights are possible but need care and a briefing.',
    aviationFee: ZONE_KIND_FEES.danger,
  },
  {
    zoneType: 'Controlled',
    color: ZONE_TYPE_COLORS.Controlled,
    description: 'Controlled airspace from an uploaded KML.',
    aviationFee: ZONE_KIND_FEES.controlled,
  },
  {
    zoneType: 'OR Tambo Buffer',
    color: ZONE_TYPE_COLORS['OR Tambo Buffer'],
    description: 'The buffer around OR Tambo International Airport.',
    aviationFee: ZONE_KIND_FEES['or-tambo-buffer'],
  },
]

export interface ZoneClassification {
  zoneType: ZoneType
  kind: ZoneKind
  color: string
  /** Cents; 0 for zones that start above low level. */
  aviationFee: number
  lowerIsSurface: boolean
  requiresApproval: boolean
}

/** Properties of a feature of the national dataset (`db/data/za-airspace.geojson`). */
export interface NationalZoneProperties {
  id: string
  name: string
  type: 'CTR' | 'ATZ' | 'TMA' | 'CTA' | 'AWY' | 'R' | 'D' | 'P' | 'GSEC' | 'PJE' | string
  designator: string | null
  lowerFt: number | null
  upperFt: number | null
  lowerRef: string | null
  lowerIsSurface: boolean
  duplicateOf?: string | null
}

const NATIONAL_TYPES: Record<string, { zoneType: ZoneType; kind: ZoneKind }> = {
  CTR: { zoneType: 'CTR', kind: 'controlled' },
  ATZ: { zoneType: 'ATZ', kind: 'controlled' },
  TMA: { zoneType: 'TMA', kind: 'controlled' },
  CTA: { zoneType: 'CTA', kind: 'controlled' },
  R: { zoneType: 'Restricted', kind: 'restricted' },
  P: { zoneType: 'Prohibited', kind: 'prohibited' },
  D: { zoneType: 'Danger', kind: 'danger' },
  AWY: { zoneType: 'Airway', kind: 'airway' },
  GSEC: { zoneType: 'Gliding', kind: 'gliding' },
  PJE: { zoneType: 'Parachute', kind: 'parachute' },
}

const LOW_LEVEL_FLOOR_FT_AGL = 400

/** A zone matters to a drone when it starts at the ground or within LOW_LEVEL_FLOOR_FT_AGL (400 ft) of it. */
function startsAtLowLevel(p: Pick<NationalZoneProperties, 'lowerIsSurface' | 'lowerRef' | 'lowerFt'>) {
  if (p.lowerIsSurface) return true
  return p.lowerRef === 'AGL' && p.lowerFt !== null && p.lowerFt <= LOW_LEVEL_FLOOR_FT_AGL
}

/** Maps a national-dataset feature to its type, kind, colour, fee and approval flag. */
export function classifyNationalZone(p: NationalZoneProperties): ZoneClassification {
  const { zoneType, kind } = NATIONAL_TYPES[p.type] ?? {
    zoneType: 'Controlled' as const,
    kind: 'controlled' as const,
  }
  const lowLevel = startsAtLowLevel(p)
  return {
    zoneType,
    kind,
    color: ZONE_TYPE_COLORS[zoneType],
    aviationFee: lowLevel ? ZONE_KIND_FEES[kind] : 0,
    lowerIsSurface: lowLevel,
    requiresApproval: lowLevel && (kind === 'prohibited' || kind === 'restricted'),
  }
}

type ColourFamily = 'red' | 'yellow' | 'green' | 'blue'

/** '#rrggbb' (as @tmcw/togeojson writes KML colours) → a colour family by hue. */
export function colourFamily(hex: string | null | undefined): ColourFamily | null {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex?.trim() ?? '')
  if (!match) return null
  const n = parseInt(match[1], 16)
  const r = ((n >> 16) & 255) / 255
  const g = ((n >> 8) & 255) / 255
  const b = (n & 255) / 255
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  if (max - min < 0.15) return null // grey, black or white: no colour to read
  let hue: number
  if (max === r) hue = (((g - b) / (max - min)) * 60 + 360) % 360
  else if (max === g) hue = ((b - r) / (max - min)) * 60 + 120
  else hue = ((r - g) / (max - min)) * 60 + 240
  if (hue < 25 || hue >= 330) return 'red'
  if (hue < 75) return 'yellow'
  if (hue < 165) return 'green'
  return 'blue'
}

function familyFromWords(text: string): ColourFamily | null {
  const t = text.toLowerCase()
  if (/\bred\b|red[_-]|danger/.test(t)) return 'red'
  if (/yellow|tambo|buffer/.test(t)) return 'yellow'
  if (/green/.test(t)) return 'green'
  if (/blue|controlled/.test(t)) return 'blue'
  return null
}

/** What the admin's KML upload knows about a placemark (togeojson properties). */
export interface KmlPlacemarkStyle {
  name?: string | null
  fill?: string | null
  stroke?: string | null
  styleUrl?: string | null
}

/**
 * KML placemark → zone: blue/green → Controlled R850, yellow → OR Tambo
 * Buffer R150, red → Danger R0. The fill colour decides, then the line colour, then
 * colour words in the style id or name; with no clue at all the zone is treated as
 * controlled airspace (the cautious reading: it carries the fee).
 */
export function classifyKmlPlacemark(style: KmlPlacemarkStyle): ZoneClassification {
  const family =
    colourFamily(style.fill) ??
    colourFamily(style.stroke) ??
    familyFromWords(style.styleUrl ?? '') ??
    familyFromWords(style.name ?? '') ??
    'blue'
  const { zoneType, kind }: { zoneType: ZoneType; kind: ZoneKind } =
    family === 'yellow'
      ? { zoneType: 'OR Tambo Buffer', kind: 'or-tambo-buffer' }
      : family === 'red'
        ? { zoneType: 'Danger', kind: 'danger' }
        : { zoneType: 'Controlled', kind: 'controlled' }
  return {
    zoneType,
    kind,
    color: ZONE_TYPE_COLORS[zoneType],
    aviationFee: ZONE_KIND_FEES[kind],
    lowerIsSurface: true,
    requiresApproval: false,
  }
}

/** Credit line for any map layer that shows the national zones (AIRSPACE-ATTRIBUTION.md). */
export const AIRSPACE_ATTRIBUTION =
  'Airspace: XCSoar xcsoar-data-content / SA gliding community, from AIP South Africa (SACAA/ATNS), 2018. NOT FOR NAVIGATION.'
