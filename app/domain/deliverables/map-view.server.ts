/**
 * What the Map view (`/projects/$projectId/map`) shows and its no-JS volume form: the
 * project's survey areas, its deliverables (the raster ones become map layers) and a volume
 * measured from typed "lat, lng" lines through the same service as POST …/volume.
 */
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import { coordinateLines, fieldError } from '#app/domain/places/coordinate-form.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { numberInput } from '#app/lib/http/zod-input.ts'
import type { User } from '#db/schema.ts'
import { z } from 'zod'

import { isRasterKind, type Deliverable } from './deliverable.ts'
import { listDeliverables } from './deliverables.server.ts'
import { MEASURE_MESSAGES, VolumeBaseSchema, type VolumeBase, type VolumeFigures } from './measure-schemas.ts'
import { measureVolume } from './measure.server.ts'

type Actor = Pick<User, 'id' | 'role'>

/** A raster deliverable as a map layer (ready viewing copy only). */
export interface MapLayer {
  id: number
  fileName: string
  kind: 'orthomosaic' | 'elevation'
  cogUrl: string
  previewUrl: string | null
  boundsWgs84: [number, number, number, number]
  footprintWgs84: [number, number][]
  minValue: number | null
  maxValue: number | null
  /** The COG holds colours, not heights (a view-only share link's elevation model): drawn as it is. */
  rendered?: boolean
}

export function loadMapView(user: Actor, projectId: number, db: DbOrTx = getDb()) {
  const project = requireVisibleProject(user, projectId, db)
  const deliverables = listDeliverables(user, projectId, db)
  return {
    project: { id: project.id, name: project.name },
    areas: flightPlanAreas(project.flightPlan) ?? [],
    deliverables,
    layers: deliverables.flatMap((d) => toMapLayer(d) ?? []),
  }
}

/**
 * Where the map reads a layer's viewing copy: the signed-in /api by default; the public
 * viewer passes its own, through the share link.
 */
export type ViewUrlOf = (d: Deliverable, which: 'cog' | 'preview') => string | null

const signedInViewUrl: ViewUrlOf = (d, which) =>
  (which === 'cog' ? d.view?.cogUrl : d.view?.previewUrl) ?? null

/** A raster deliverable with a ready viewing copy as a map layer (null for anything else). */
export function toMapLayer(d: Deliverable, viewUrlOf: ViewUrlOf = signedInViewUrl): MapLayer | null {
  const cogUrl = viewUrlOf(d, 'cog')
  if (!isRasterKind(d.kind) || !d.raster || d.view?.status !== 'ready' || !cogUrl) return null
  return {
    id: d.id,
    fileName: d.fileName,
    kind: d.kind as MapLayer['kind'],
    cogUrl,
    previewUrl: viewUrlOf(d, 'preview'),
    boundsWgs84: d.raster.boundsWgs84,
    footprintWgs84: d.raster.footprintWgs84,
    minValue: d.view.minValue,
    maxValue: d.view.maxValue,
  }
}

/** The no-JS volume form's fields. */
const VOLUME_FORM_MESSAGES = {
  file: 'Choose an elevation model.',
  coordinates: 'Type at least 3 corners, one ‘latitude, longitude’ per line.',
  tooMany: 'At most 1000 corners.',
  baseHeight: 'Type the base height in metres.',
} as const

const MAX_CORNERS = 1000

const VolumeFormSchema = z.object({
  fileId: numberInput(z.number({ message: VOLUME_FORM_MESSAGES.file }).int().positive()),
  coordinates: z.string({ message: VOLUME_FORM_MESSAGES.coordinates }).max(MAX_CORNERS * 40),
  base: z.enum(['edge-mean', 'edge-lowest', 'height'], { message: MEASURE_MESSAGES.base }),
  baseHeight: numberInput(z.number({ message: VOLUME_FORM_MESSAGES.baseHeight }).optional()),
})

function ringFromLines(text: string): [number, number][] {
  const ring = coordinateLines(text)
  if (ring.length > MAX_CORNERS) throw fieldError('coordinates', VOLUME_FORM_MESSAGES.tooMany)
  if (ring.length < 3) throw fieldError('coordinates', VOLUME_FORM_MESSAGES.coordinates)
  return ring
}

export type VolumeFormResult = {
  fileId: number
  base: VolumeBase
  figures: VolumeFigures
}

/** The no-JS volume form: typed corners → the same figures as POST …/volume. */
export async function volumeFromForm(
  user: Actor,
  projectId: number,
  fields: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<VolumeFormResult> {
  const parsed = VolumeFormSchema.safeParse(fields)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw fieldError(String(issue.path[0] ?? 'form'), issue.message)
  }
  const { fileId, coordinates, base: baseChoice, baseHeight } = parsed.data
  const ring = ringFromLines(coordinates)
  if (baseChoice === 'height' && baseHeight === undefined) {
    // A typed height left blank starts at the edge's mean height: measured so, and written into the box.
    const figures = await measureVolume(user, projectId, fileId, { ring, base: 'edge-mean' })
    return { fileId, base: { elevationM: figures.baseElevationM }, figures }
  }
  let base: VolumeBase = baseChoice === 'height' ? { elevationM: baseHeight ?? Number.NaN } : baseChoice
  const checked = VolumeBaseSchema.safeParse(base)
  if (!checked.success) throw fieldError('baseHeight', VOLUME_FORM_MESSAGES.baseHeight)
  base = checked.data
  return { fileId, base, figures: await measureVolume(user, projectId, fileId, { ring, base }, { signal }) }
}
