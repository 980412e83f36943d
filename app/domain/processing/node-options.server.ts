/**
 * The admin's ODM options checked against the node that will run them: NodeODM drops unknown
 * option names silently, so its `/options` (kept five minutes) is the reference.
 */
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { processingNodes } from '#db/schema.ts'

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

/** The admin's options checked against the node that will run them (400 with `fieldErrors.options`). */
export async function validateOptions(
  options: Record<string, unknown>,
  imagesCount: number,
  nodeId: number | null,
) {
  const node = pickNode(imagesCount, nodeId)
  if (!node) throw new DomainError(409, PROCESSING_MESSAGES.noNode)
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
