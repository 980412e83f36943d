/**
 * The admin's checkpoint form on a page (multipart: the CSV pasted or uploaded, so it works
 * without JavaScript): read within the CSV's limit, checked by `checkDeliverable`, answered by a
 * redirect with a toast, or by the refusal on its field with what was typed.
 */
import {
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  json,
  MaxPartSizeExceededError,
} from '@remix-run/node'
import {
  CHECKPOINT_FORM,
  DELIVERABLE_CHECKPOINTS_INTENT,
  type CheckpointFormAnswer,
} from '#app/components/deliverables/deliverable-checkpoints-form.tsx'
import { checkDeliverable } from '#app/domain/deliverables/checkpoints.server.ts'
import { checkpointText } from '#app/domain/deliverables/deliverable.ts'
import { CHECKPOINT_CSV_MAX_BYTES, CheckpointsSchema } from '#app/domain/deliverables/schemas.ts'
import { zodFieldErrors } from '#app/lib/http/api.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { jsonWithErrorToast, redirectWithToast } from '#app/lib/http/toast.server.ts'
import type { User } from '#db/schema.ts'

const CHECKPOINT_FORM_MESSAGES = {
  tooLarge: 'The CSV is at most 256 KB.',
  notThisForm: 'Please submit the checkpoint form from the page.',
  checked: 'Checkpoints checked',
} as const

const EMPTY = { crs: '', csv: '' }

const CheckpointFormIntents = intentSchema(DELIVERABLE_CHECKPOINTS_INTENT)

/** Whether a page's multipart post is the checkpoint form (its action URL says so). */
export function isCheckpointForm(request: Request) {
  return new URL(request.url).searchParams.get('form') === CHECKPOINT_FORM
}

const refused = (answer: CheckpointFormAnswer, status = 400) => json({ checkpoints: answer }, { status })

export async function checkpointFormAnswer(
  request: Request,
  admin: Pick<User, 'id' | 'role'>,
  projectId: number,
  here: string,
) {
  let form: FormData
  try {
    form = await readFormBody(request, {
      uploadHandler: createMemoryUploadHandler({ maxPartSize: CHECKPOINT_CSV_MAX_BYTES }),
    })
  } catch (error) {
    if (!(error instanceof MaxPartSizeExceededError)) throw error
    const field = error.field === 'csv' ? 'csv' : 'csvFile'
    // The form was not read to its end: which model it was for is unknown, so a toast says it.
    return jsonWithErrorToast(
      {
        checkpoints: {
          fileId: 0,
          fieldErrors: { [field]: [CHECKPOINT_FORM_MESSAGES.tooLarge] },
          fields: EMPTY,
        },
      },
      413,
      { title: CHECKPOINT_FORM_MESSAGES.tooLarge },
    )
  }
  const fileId = Number(form.get('fileId'))
  const typed = { crs: String(form.get('crs') ?? ''), csv: String(form.get('csv') ?? '') }
  if (readIntent(form, CheckpointFormIntents) !== DELIVERABLE_CHECKPOINTS_INTENT)
    return refused({ fileId, fieldErrors: { form: [CHECKPOINT_FORM_MESSAGES.notThisForm] }, fields: typed })
  const upload = form.get('csvFile')
  const uploaded = upload instanceof File && upload.size > 0
  // A file's byte-order mark is not part of its header line.
  const csv = uploaded ? (await upload.text()).replace(/^\uFEFF/, '') : typed.csv
  // A refusal of the CSV's content is the file's when the file was the CSV.
  const csvField = uploaded ? 'csvFile' : 'csv'
  const parsed = CheckpointsSchema.safeParse({ crs: typed.crs, csv })
  if (!parsed.success) {
    const { csv: csvErrors, ...others } = zodFieldErrors(parsed.error)
    return refused({ fileId, fieldErrors: { ...others, [csvField]: csvErrors }, fields: typed })
  }
  try {
    const deliverable = await checkDeliverable(admin, projectId, fileId, parsed.data, {
      signal: request.signal,
    })
    return redirectWithToast(here, {
      title: CHECKPOINT_FORM_MESSAGES.checked,
      description: checkpointText(deliverable.checkpoints) ?? undefined,
    })
  } catch (error) {
    if (!(error instanceof DomainError) || error.status >= 500) throw error
    const { csv: csvErrors, ...others } = error.fieldErrors ?? { form: [error.message] }
    return refused(
      { fileId, fieldErrors: { ...others, [csvField]: csvErrors }, fields: typed },
      error.status === 404 || error.status === 429 ? error.status : 400,
    )
  }
}
