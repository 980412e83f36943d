/**
 * The Map view's design-surface forms (they work without JavaScript): an admin's upload (the
 * page's one multipart form) and deletion, answered by a redirect with a toast, and the cut/fill
 * form, answered with its figures or its message and the typed fields.
 */
import { json } from '@remix-run/node'
import { cutFillFromForm } from '#app/domain/design/cut-fill-form.server.ts'
import { createDesignSurface, deleteDesignSurface } from '#app/domain/design/design-surfaces.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'
import type { User } from '#db/schema.ts'

type Actor = Pick<User, 'id' | 'role'>

/** The other forms' answers, empty beside a design answer. */
const NO_MEASURE = { volume: null, error: null, fieldErrors: null, fields: null, note: null } as const
const NO_CUT_FILL = { cutFill: null, cutFillError: null, cutFillFields: null, designError: null } as const

const mapUrl = (projectId: number) => `/projects/${projectId}/map#design-surfaces`

function refusal(error: unknown) {
  if (!(error instanceof DomainError) || error.status >= 500) throw error
  return error
}

const statusOf = (error: DomainError) =>
  [403, 404, 413, 415, 429].includes(error.status) ? error.status : 400

export async function designUploadAnswer(user: Actor, projectId: number, request: Request) {
  try {
    const design = await createDesignSurface(user, projectId, request)
    return redirectWithToast(mapUrl(projectId), { title: `Design surface ‘${design.name}’ added.` })
  } catch (error) {
    const refused = refusal(error)
    return json(
      { ...NO_MEASURE, ...NO_CUT_FILL, designError: refused.message },
      { status: statusOf(refused) },
    )
  }
}

export async function designDeleteAnswer(user: Actor, projectId: number, form: FormData) {
  try {
    await deleteDesignSurface(user, projectId, Number(form.get('designId')))
    return redirectWithToast(mapUrl(projectId), { title: 'Design surface deleted.' })
  } catch (error) {
    const refused = refusal(error)
    return json(
      { ...NO_MEASURE, ...NO_CUT_FILL, designError: refused.message },
      { status: statusOf(refused) },
    )
  }
}

export async function cutFillAnswer(user: Actor, projectId: number, form: FormData, signal: AbortSignal) {
  try {
    const cutFill = await cutFillFromForm(user, projectId, Object.fromEntries(form), signal)
    return json({ ...NO_MEASURE, ...NO_CUT_FILL, cutFill })
  } catch (error) {
    const refused = refusal(error)
    const cutFillFields = {
      fileId: String(form.get('fileId') ?? ''),
      designSurfaceId: String(form.get('designSurfaceId') ?? ''),
      coordinates: String(form.get('coordinates') ?? ''),
    }
    return json(
      { ...NO_MEASURE, ...NO_CUT_FILL, cutFillError: refused.message, cutFillFields },
      { status: statusOf(refused) },
    )
  }
}
