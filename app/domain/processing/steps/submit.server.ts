/**
 * `queued`: a node is picked for the job's photos and a task made there with the preset's
 * options, the survey areas as ODM's `boundary` and a webhook with a fresh secret; the job
 * moves to `uploading`. No node free: it waits ("Waiting for a processing node").
 */
import crypto from 'node:crypto'
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import { closedRing } from '#app/domain/geometry/areas.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import type { DbOrTx } from '#app/lib/db/db.server.ts'
import { projects, type ProcessingJob } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { hashSecret } from '../jobs.server.ts'
import { cancelTask, initTask, removeTask } from '../nodeodm-client.server.ts'
import { nodeAddress, pickNode } from '../nodes.server.ts'
import { PROCESSING_MESSAGES, taskOptions } from '../presets.ts'
import { projectPhotosWithoutAccessCheck } from '../project-photos.server.ts'
import { assertRoomForResults, expectedResultsBytes } from '../results-space.server.ts'
import { fail, later, move, throwIfAborted, WAITING_FOR_NODE, type StepContext } from './context.server.ts'

function boundaryOf(db: DbOrTx, projectId: number) {
  const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
  const areas = flightPlanAreas(project?.flightPlan) ?? []
  if (!areas.length) return null
  return {
    type: 'FeatureCollection',
    features: areas.map((a, i) => ({
      type: 'Feature',
      properties: { area: i + 1 },
      geometry: { type: 'Polygon', coordinates: [closedRing(a.coordinates)] },
    })),
  }
}

/** A big job is split into submodels (ODM's split-merge, spread by ClusterODM), unless the admin chose. */
export function splitOptions(photoCount: number, chosen: Record<string, unknown>) {
  const env = getEnv()
  if (!env.PROCESSING_SPLIT_AT || photoCount <= env.PROCESSING_SPLIT_AT || 'split' in chosen) return {}
  const options: Record<string, unknown> = { split: env.PROCESSING_SPLIT_PHOTOS }
  if (!('split-overlap' in chosen)) options['split-overlap'] = env.PROCESSING_SPLIT_OVERLAP_M
  return options
}

export async function submit(job: ProcessingJob, { db, signal, settings }: StepContext) {
  const photos = projectPhotosWithoutAccessCheck(job.projectId, db)
  if (!photos.length) return fail(db, job, PROCESSING_MESSAGES.noPhotos)
  const node = pickNode(photos.length, job.requestedNodeId, db)
  if (!node) return move(db, job, { stage: WAITING_FOR_NODE, nextCheckAt: later(settings.pollMs) })
  const photoBytes = photos.reduce((sum, photo) => sum + photo.fileSize, 0)
  // Refused before the photos leave: the results would not fit on Kestrel's disk.
  await assertRoomForResults(`The results of ${photos.length} photos`, expectedResultsBytes(photoBytes))
  const project = db
    .select({ name: projects.name })
    .from(projects)
    .where(eq(projects.id, job.projectId))
    .get()
  const secret = crypto.randomBytes(24).toString('base64url')
  const extra = { ...job.options }
  const boundary = 'boundary' in extra ? null : boundaryOf(db, job.projectId)
  // NodeODM takes a `json` option as a JSON string.
  if (boundary) extra.boundary = JSON.stringify(boundary)
  Object.assign(extra, splitOptions(photos.length, extra))
  const address = nodeAddress(node)
  const uuid = await initTask(address, {
    name: `${project?.name ?? 'Project'} (Kestrel job ${job.id})`.slice(0, 200),
    options: taskOptions(job.preset, extra),
    webhook: `${settings.webhookBase}/api/processing/webhook/${job.id}/${secret}`,
  })
  throwIfAborted(signal)
  const moved = move(db, job, {
    status: 'uploading',
    nodeId: node.id,
    taskUuid: uuid,
    webhookSecretHash: hashSecret(secret),
    imagesCount: photos.length,
    imagesUploaded: 0,
    outputLines: 0,
    engineVersion: node.engineVersion,
    startedAt: job.startedAt ?? new Date(),
    nodeSeenAt: new Date(),
    stage: `Uploading photo 0 of ${photos.length}`,
    submitAttempts: 0,
    nextCheckAt: null,
  })
  if (!moved) {
    // Canceled while the task was made: the node forgets it.
    await cancelTask(address, uuid).catch(() => {})
    await removeTask(address, uuid).catch(() => {})
  }
  return moved
}
