/**
 * Processing nodes (NodeODM or ClusterODM servers): the admin's list, `NODEODM_URL` as a
 * node at start, and the health check that asks each node's `/info` every 30 s. A node is
 * offline after two minutes without an answer; one added while offline is kept and shown so.
 * Tokens are stored and sent to the node, never shown back.
 */
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { every } from '#app/lib/jobs/scheduler.server.ts'
import { processingJobs, processingNodes, type ProcessingNode } from '#db/schema.ts'
import { and, asc, eq, inArray } from 'drizzle-orm'
import { z } from 'zod'

import { getNodeInfo, NodeOdmError, type NodeAddress } from './nodeodm-client.server.ts'
import { ACTIVE_PROCESSING_STATUSES, PROCESSING_MESSAGES } from './presets.ts'

const HEALTH_CHECK_MS = 30_000
const OFFLINE_AFTER_MS = 2 * 60_000

const HttpUrl = z
  .string()
  .trim()
  .max(500)
  .refine((value) => {
    try {
      const url = new URL(value)
      return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname)
    } catch {
      return false
    }
  }, PROCESSING_MESSAGES.badUrl)

export const NodeCreateSchema = z.object({
  label: z.string().trim().min(1, 'Enter a label').max(100),
  url: HttpUrl,
  token: z.string().trim().max(500).optional(),
})

export const NodeUpdateSchema = z.object({
  label: z.string().trim().min(1, 'Enter a label').max(100).optional(),
  url: HttpUrl.optional(),
  /** An empty string removes the token; absent keeps it. */
  token: z.string().trim().max(500).optional(),
  enabled: z.boolean().optional(),
})

/** A node as the admin sees it (no token; `hasToken` says whether one is kept). */
export function toNodeView(node: ProcessingNode) {
  return {
    id: node.id,
    label: node.label,
    url: node.url,
    enabled: node.enabled,
    online: node.online,
    queueCount: node.queueCount,
    maxImages: node.maxImages,
    engineVersion: node.engineVersion,
    lastSeenAt: node.lastSeenAt?.toISOString() ?? null,
    lastError: node.lastError,
    hasToken: Boolean(node.token),
  }
}

export function nodeAddress(node: Pick<ProcessingNode, 'url' | 'token'>): NodeAddress {
  return { url: node.url, token: node.token }
}

export function listNodes(db: DbOrTx = getDb()) {
  return db.select().from(processingNodes).orderBy(asc(processingNodes.label), asc(processingNodes.id)).all()
}

function getNode(id: number, db: DbOrTx = getDb()) {
  const node = db.select().from(processingNodes).where(eq(processingNodes.id, id)).get()
  if (!node) throw new DomainError(404, PROCESSING_MESSAGES.unknownNode)
  return node
}

/** A URL with `?token=` in it: the token is kept apart, the URL stored without it. */
function splitToken(url: string): { url: string; token: string | null } {
  const parsed = new URL(url)
  const token = parsed.searchParams.get('token')
  parsed.searchParams.delete('token')
  return { url: parsed.toString().replace(/\/$/, ''), token }
}

export function createNode(adminId: number | null, input: z.infer<typeof NodeCreateSchema>, db = getDb()) {
  const { url, token } = splitToken(input.url)
  return db.transaction((tx) => {
    const node = tx
      .insert(processingNodes)
      .values({ label: input.label, url, token: input.token || token })
      .returning()
      .get()
    recordAudit(
      {
        actorId: adminId,
        action: 'processing-node.create',
        entityType: 'processing_node',
        entityId: node.id,
        after: toNodeView(node),
      },
      tx,
    )
    return node
  })
}

export function updateNode(
  adminId: number,
  id: number,
  input: z.infer<typeof NodeUpdateSchema>,
  db = getDb(),
) {
  return db.transaction((tx) => {
    const before = getNode(id, tx)
    const split = input.url ? splitToken(input.url) : null
    const token = input.token !== undefined ? input.token || null : (split?.token ?? before.token)
    const moved = Boolean(split && split.url !== before.url)
    const node = tx
      .update(processingNodes)
      .set({
        ...(input.label !== undefined ? { label: input.label } : {}),
        ...(split ? { url: split.url } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        token,
        // A new address is a new server: unknown until it answers.
        ...(moved ? { online: false, lastSeenAt: null, failingSince: null, lastError: null } : {}),
      })
      .where(eq(processingNodes.id, id))
      .returning()
      .get()
    recordAudit(
      {
        actorId: adminId,
        action: 'processing-node.update',
        entityType: 'processing_node',
        entityId: id,
        before: toNodeView(before),
        after: toNodeView(node),
      },
      tx,
    )
    return node
  })
}

export function deleteNode(adminId: number, id: number, db = getDb()) {
  db.transaction((tx) => {
    const node = getNode(id, tx)
    const busy = tx
      .select({ id: processingJobs.id })
      .from(processingJobs)
      .where(
        and(eq(processingJobs.nodeId, id), inArray(processingJobs.status, [...ACTIVE_PROCESSING_STATUSES])),
      )
      .get()
    if (busy) throw new DomainError(409, PROCESSING_MESSAGES.nodeBusy)
    tx.delete(processingNodes).where(eq(processingNodes.id, id)).run()
    recordAudit(
      {
        actorId: adminId,
        action: 'processing-node.delete',
        entityType: 'processing_node',
        entityId: id,
        before: toNodeView(node),
      },
      tx,
    )
  })
}

/** `NODEODM_URL` becomes a node once (kept as the admin edits it afterwards). */
export function seedNodeFromEnv(url = getEnv().NODEODM_URL, db = getDb()) {
  if (!url) return null
  const { url: bare } = splitToken(url)
  const known = db.select().from(processingNodes).where(eq(processingNodes.url, bare)).get()
  if (known) return known
  return createNode(null, { label: new URL(bare).host, url }, db)
}

/** Asks one node's `/info` and stores what it says (or that it did not answer). */
async function checkNode(node: ProcessingNode, now = () => new Date(), db = getDb()) {
  try {
    const info = await getNodeInfo(nodeAddress(node))
    return db
      .update(processingNodes)
      .set({
        online: true,
        queueCount: info.taskQueueCount,
        maxImages: info.maxImages ?? null,
        engineVersion: [info.engine, info.engineVersion].filter(Boolean).join(' ').slice(0, 100) || null,
        lastSeenAt: now(),
        failingSince: null,
        lastError: null,
      })
      .where(eq(processingNodes.id, node.id))
      .returning()
      .get()
  } catch (error) {
    if (!(error instanceof NodeOdmError)) throw error
    const at = now()
    const since = node.failingSince ?? at
    return db
      .update(processingNodes)
      .set({
        failingSince: since,
        lastError: error.message.slice(0, 500),
        // Never seen: offline at once; seen before: offline after two minutes of failures.
        online: node.lastSeenAt ? at.getTime() - since.getTime() < OFFLINE_AFTER_MS : false,
      })
      .where(eq(processingNodes.id, node.id))
      .returning()
      .get()
  }
}

/** Checks every enabled node at once. */
export async function checkNodes(now = () => new Date(), db = getDb()) {
  const nodes = db.select().from(processingNodes).where(eq(processingNodes.enabled, true)).all()
  return Promise.all(nodes.map((node) => checkNode(node, now, db)))
}

/** The 30-second health check (server.ts), through the server's scheduler; returns its stop function. */
export function startNodeHealthChecks(intervalMs = HEALTH_CHECK_MS) {
  return every({ name: 'processing: node health check', everyMs: intervalMs, run: () => checkNodes() }).stop
}

/**
 * The node for `imagesCount` photos: online, enabled, taking that many, shortest queue.
 * `wanted` (the admin's choice) is used only when it qualifies.
 */
export function pickNode(imagesCount: number, wanted: number | null, db: DbOrTx = getDb()) {
  const usable = db
    .select()
    .from(processingNodes)
    .where(and(eq(processingNodes.enabled, true), eq(processingNodes.online, true)))
    .all()
    .filter((n) => n.maxImages === null || n.maxImages >= imagesCount)
  const pool = wanted !== null ? usable.filter((n) => n.id === wanted) : usable
  return pool.sort((a, b) => a.queueCount - b.queueCount || a.id - b.id)[0] ?? null
}
