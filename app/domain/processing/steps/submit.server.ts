/**
 * `queued`: a node is picked for the job's photos and a task made there with the preset's
 * options, the survey areas as ODM's `boundary` and a webhook with a fresh secret; the job
 * moves to `uploading`. No node free: it waits ("Waiting for a processing node").
 */
import crypto from 'node:crypto'
import { surveyAreasOf } from '#app/domain/deliverables/map-view.server.ts'
import { closedRing } from '#app/domain/geometry/areas.ts'
import type { DbOrTx } from '#app/lib/db/db.server.ts'
import { projects, type ProcessingJob } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { hashSecret } from '../jobs.server.ts'
import { cancelTask, initTask, removeTask } from '../nodeodm-client.server.ts'
import { nodeAddress, pickNode } from '../nodes.server.ts'
import { PROCESSING_MESSAGES, taskOptions } from '../presets.ts'
import { projectPhotosWithoutAccessCheck } from '../project-photos.server.ts'
import { fail, later, move, throwIfAborted, type StepContext } from './context.server.ts'

function boundaryOf(db: DbOrTx, projectId: number) {
  const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
  const areas = project ? surveyAreasOf(project) : []
  if (!areas.length) return null
  return {
    type: 'FeatureCollection',
    features: areas.map((a) => ({
      type: 'Feature',
      properties: { area: a.areaNumber },
      geometry: { type: 'Polygon', coordinates: [closedRing(a.points)] },
    })),
  }
}

export async function submit(job: ProcessingJob, { db, signal, settings }: StepContext) {
  const photos = projectPhotosWithoutAccessCheck(job.projectId, db)
  if (!photos.length) return fail(db, job, PROCESSING_MESSAGES.noPhotos)
  const node = pickNode(photos.length, job.requestedNodeId, db)
  if (!node) {
    return move(db, job, { stage: 'Waiting for a processing node', nextCheckAt: later(settings.pollMs) })
  }
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
    nextCheckAt: null,
  })
  if (!moved) {
    // Canceled while the task was made: the node forgets it.
    await cancelTask(address, uuid).catch(() => {})
    await removeTask(address, uuid).catch(() => {})
  }
  return moved
}
