/**
 * The processing pages' forms (no JavaScript needed): the admin's "Process photos",
 * cancel and restart on a project, and the node list in the settings. Each calls the same
 * service as the /api calls and answers with a redirect and a toast.
 */
import { chooseJobOutputs } from '#app/domain/processing/job-outputs.server.ts'
import { cancelProcessing, restartProcessing, startProcessing } from '#app/domain/processing/jobs.server.ts'
import {
  addNode,
  deleteNode,
  editNode,
  NodeCreateSchema,
  NodeUpdateSchema,
  toNodeView,
} from '#app/domain/processing/nodes.server.ts'
import {
  JobOutputsSchema,
  parseOptionsText,
  PRESET_LABELS,
  PROCESSING_PRESETS,
  type ProcessingPreset,
} from '#app/domain/processing/presets.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { redirectWithToast, type ToastInput } from '#app/lib/http/toast.server.ts'
import type { ProcessingNode } from '#db/schema.ts'

function optionsFrom(formData: FormData) {
  const parsed = parseOptionsText(String(formData.get('options') ?? '').slice(0, 20_000))
  if (typeof parsed === 'string') throw new DomainError(400, parsed, { fieldErrors: { options: [parsed] } })
  return parsed
}

/** The job's outputs choice: replace (also when the form sent none) or add. */
function outputsFrom(formData: FormData) {
  const parsed = JobOutputsSchema.shape.outputs.safeParse(formData.get('outputs') ?? 'replace')
  if (!parsed.success) throw new DomainError(400, 'Choose replace or add')
  return parsed.data
}

function jobIdOf(formData: FormData) {
  const id = Number(formData.get('jobId'))
  if (!Number.isInteger(id) || id <= 0) throw new DomainError(400, 'Invalid job id')
  return id
}

const ProcessingIntents = intentSchema(
  'processing-start',
  'processing-cancel',
  'processing-outputs',
  'processing-restart',
)

export async function processingForm(adminId: number, projectId: number, formData: FormData, back: string) {
  const intent = readIntent(formData, ProcessingIntents)
  try {
    if (intent === 'processing-start') {
      const preset = String(formData.get('preset')) as ProcessingPreset
      if (!PROCESSING_PRESETS.includes(preset)) throw new DomainError(400, 'Choose a preset')
      const nodeId = Number(formData.get('nodeId')) || undefined
      // Checkboxes: the form always shows them, so an absent one is unticked.
      const deliverWhenDone = formData.get('deliverWhenDone') === 'on'
      await startProcessing(adminId, projectId, {
        preset,
        options: optionsFrom(formData),
        nodeId,
        acceptWarnings: formData.get('acceptWarnings') === 'on',
        deliverWhenDone,
        outputs: outputsFrom(formData),
      })
      return redirectWithToast(back, {
        title: 'Processing started',
        description: `${PRESET_LABELS[preset]}: the photos are on their way to the processing node.${deliverWhenDone ? ' The results go to the client when they are ready.' : ''}`,
      })
    }
    if (intent === 'processing-cancel') {
      await cancelProcessing(adminId, jobIdOf(formData))
      return redirectWithToast(back, {
        title: 'Processing cancelled',
        description: 'The node was told to stop.',
      })
    }
    if (intent === 'processing-outputs') {
      const publishNow = formData.get('publishNow') === 'true'
      const { published } = await chooseJobOutputs(adminId, jobIdOf(formData), {
        outputs: outputsFrom(formData),
        publishNow,
      })
      return redirectWithToast(back, {
        title: published ? 'Outputs published' : 'Choice saved',
        description: published
          ? 'The job’s outputs are now the project’s deliverables.'
          : 'It applies when the job’s outputs are published.',
      })
    }
    if (intent === 'processing-restart') {
      const text = String(formData.get('options') ?? '').trim()
      await restartProcessing(adminId, jobIdOf(formData), text ? { options: optionsFrom(formData) } : {})
      return redirectWithToast(back, {
        title: 'Processing restarted',
        description: 'The job is queued again.',
      })
    }
    throw new DomainError(400, 'Unknown action')
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return redirectWithToast(back, {
      type: 'error',
      title: 'Processing not started',
      description: error.message,
    })
  }
}

function firstIssue(error: { issues: Array<{ message: string }> }) {
  return error.issues[0]?.message ?? 'Check the form'
}

/** What the check made at once found: online with its engine, or kept offline with the reason. */
function reachedToast(title: string, row: ProcessingNode): ToastInput {
  const node = toNodeView(row)
  if (node.online) {
    const engine = node.engineVersion ? ` (${node.engineVersion})` : ''
    return { title, description: `${node.label} is online${engine}.` }
  }
  return {
    type: 'error',
    title: `${title}: offline`,
    description: `${node.label} did not answer: ${node.lastError ?? 'no answer'}. It is kept and checked every 30 seconds.`,
  }
}

const NodeIntents = intentSchema('node-add', 'node-edit', 'node-enabled', 'node-delete')

export async function nodeForm(adminId: number, formData: FormData, back: string) {
  const intent = readIntent(formData, NodeIntents)
  const id = Number(formData.get('id'))
  const text = (name: string) => {
    const value = formData.get(name)
    return typeof value === 'string' ? value : undefined
  }
  try {
    if (intent === 'node-add') {
      const input = NodeCreateSchema.safeParse({
        label: text('label'),
        url: text('url'),
        token: text('token') || undefined,
      })
      if (!input.success) throw new DomainError(400, firstIssue(input.error))
      return redirectWithToast(back, reachedToast('Node added', await addNode(adminId, input.data)))
    }
    if (!Number.isInteger(id) || id <= 0) throw new DomainError(400, 'Invalid node id')
    if (intent === 'node-edit') {
      const token = text('token')
      const input = NodeUpdateSchema.safeParse({
        label: text('label'),
        url: text('url'),
        // An empty token field keeps the token; "clear" removes it.
        token: formData.get('clearToken') === 'on' ? '' : token || undefined,
      })
      if (!input.success) throw new DomainError(400, firstIssue(input.error))
      return redirectWithToast(back, reachedToast('Node updated', await editNode(adminId, id, input.data)))
    }
    if (intent === 'node-enabled') {
      const node = await editNode(adminId, id, { enabled: formData.get('enabled') === 'true' })
      if (node.enabled) return redirectWithToast(back, reachedToast('Node enabled', node))
      return redirectWithToast(back, { title: 'Node updated', description: `${node.label} is now disabled.` })
    }
    if (intent === 'node-delete') {
      deleteNode(adminId, id)
      return redirectWithToast(back, {
        title: 'Node removed',
        description: 'It will no longer receive photos.',
      })
    }
    throw new DomainError(400, 'Unknown action')
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return redirectWithToast(back, { type: 'error', title: 'Error', description: error.message })
  }
}
