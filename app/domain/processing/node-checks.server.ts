/**
 * What a job asks of the nodes, checked when it is started or restarted: a node that could take
 * its photos (409 only when none is enabled or none takes that many; with none online yet the job
 * waits), and the admin's options against the node that will run them (400).
 */
import { getDb } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { processingNodes } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { getNodeOptions, NodeOdmError, type NodeOption } from './nodeodm-client.server.ts'
import { nodeAddress, pickNode } from './nodes.server.ts'
import { checkOptions, PROCESSING_MESSAGES } from './presets.ts'

const optionsCache = new Map<number, { at: number; options: NodeOption[] }>()

/** The node's `/options`, kept five minutes. */
async function optionsOf(node: typeof processingNodes.$inferSelect) {
  const cached = optionsCache.get(node.id)
  if (cached && Date.now() - cached.at < 5 * 60_000) return cached.options
  const options = await getNodeOptions(nodeAddress(node))
  optionsCache.set(node.id, { at: Date.now(), options })
  return options
}

/** 409 unless an enabled node (the wanted one, when given) could take this many photos once online. */
function requireNodeThatCouldTake(imagesCount: number, wanted: number | null) {
  const enabled = getDb().select().from(processingNodes).where(eq(processingNodes.enabled, true)).all()
  const pool = wanted !== null ? enabled.filter((node) => node.id === wanted) : enabled
  if (!pool.length) throw new DomainError(409, PROCESSING_MESSAGES.noEnabledNode)
  if (!pool.some((node) => node.maxImages === null || node.maxImages >= imagesCount))
    throw new DomainError(409, PROCESSING_MESSAGES.tooManyPhotos(imagesCount))
}

/**
 * The admin's options checked against the node that will run them (400 with `fieldErrors.options`).
 * With no node online yet the job waits for one, and that node checks the options when it takes the task.
 */
export async function validateOptions(
  options: Record<string, unknown>,
  imagesCount: number,
  nodeId: number | null,
) {
  const node = pickNode(imagesCount, nodeId)
  if (!node) return requireNodeThatCouldTake(imagesCount, nodeId)
  if (!Object.keys(options).length) return
  let specs: NodeOption[]
  try {
    specs = await optionsOf(node)
  } catch (error) {
    if (error instanceof NodeOdmError) throw new DomainError(409, PROCESSING_MESSAGES.noNode)
    throw error
  }
  const errors = checkOptions(options, specs)
  const messages = Object.values(errors)
  if (messages.length) {
    throw new DomainError(400, messages[0]!, {
      fieldErrors: {
        options: messages,
        ...Object.fromEntries(Object.entries(errors).map(([name, m]) => [`options.${name}`, [m]])),
      },
    })
  }
}
