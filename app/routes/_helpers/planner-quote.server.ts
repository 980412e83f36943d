/**
 * Generate Quote on /flight-planner: with JavaScript the map's areas and
 * screenshot, without it pasted coordinates or a KML/GeoJSON file. The server prices and
 * stores the plan, then shows the quote (`&view=quote`); a failure comes back in place
 * with the field it concerns and, without JavaScript, the coordinates as typed.
 */
import {
  json,
  MaxPartSizeExceededError,
  redirect,
  unstable_createMemoryUploadHandler,
  type UploadHandler,
} from '@remix-run/node'
import {
  areasFromPlannerForm,
  PLANNER_FORM_MAX_BYTES,
  plannerFieldOf,
  plannerPartLimit,
  type PlannerField,
} from '#app/domain/projects/planner-input.server.ts'
import {
  completeFlightPlan,
  createProjectFailed,
  getClientProject,
  PROJECT_CREATED,
} from '#app/domain/projects/projects.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'
import type { User } from '#db/schema.ts'

type FailureToast = { title: string; description: string }
export type PlannerActionAnswer = {
  error: string
  field: PlannerField | null
  fieldErrors?: Record<string, string[]>
  toast?: FailureToast
  /** The coordinates as typed, sent back so an error never throws them away (no-JS form). */
  coordinates?: string
}

function failure(
  status: number,
  error: string,
  field: PlannerActionAnswer['field'],
  fieldErrors?: Record<string, string[]>,
  toast?: FailureToast,
  coordinates?: string,
) {
  return json<PlannerActionAnswer>({ error, field, fieldErrors, toast, coordinates }, { status })
}

const QuoteIntent = intentSchema('generate-quote')

/** Each part is read with its own field's ceiling (plannerPartLimit). */
const plannerUploadHandler: UploadHandler = (part) =>
  unstable_createMemoryUploadHandler({ maxPartSize: plannerPartLimit(part.name).maxBytes })(part)

/** The planner's action for the client's project `?projectId=` (a stranger's goes to /dashboard unread). */
export async function generateQuote(request: Request, user: Pick<User, 'id'>) {
  const id = Number(new URL(request.url).searchParams.get('projectId'))
  if (!Number.isInteger(id) || id <= 0) return failure(400, 'No project selected', null)
  // Ownership first: nothing of a stranger's body is read or parsed.
  let wasDraft: boolean
  try {
    wasDraft = getClientProject(user.id, id).status === 'draft'
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw redirect('/dashboard')
    throw error
  }

  let formData: FormData
  try {
    // With JavaScript the map posts its areas and screenshot urlencoded (percent-encoded base64 grows).
    formData = await readFormBody(request, {
      uploadHandler: plannerUploadHandler,
      maxBytes: PLANNER_FORM_MAX_BYTES,
    })
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) {
      const limit = plannerPartLimit(error.field)
      return failure(413, limit.message, limit.field)
    }
    // Not a form, or unreadable: the planner shows the reason in place (403 stays an error page).
    if (error instanceof Response && error.status !== 403) {
      const { error: message } = (await error.json()) as { error: string }
      return failure(error.status, message, null)
    }
    throw error
  }
  if (!readIntent(formData, QuoteIntent)) return failure(400, 'Unknown action', null)
  const typed = formData.get('coordinates')
  const coordinates = typeof typed === 'string' && typed.trim() ? typed : undefined

  let input: Awaited<ReturnType<typeof areasFromPlannerForm>>
  try {
    input = await areasFromPlannerForm(formData)
  } catch (error) {
    if (isDomainError(error))
      return failure(error.status, error.message, plannerFieldOf(error), undefined, undefined, coordinates)
    throw error
  }

  const { areas, field } = input
  const screenshot = formData.get('screenshot')
  try {
    completeFlightPlan(user.id, id, {
      areas,
      screenshot: typeof screenshot === 'string' && screenshot ? screenshot : undefined,
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    if (error.status === 404) throw redirect('/dashboard')
    // Pricing or saving the project failed: the 'Error' toast besides the inline alert
    //. It travels in the answer (a flash cookie would only show on the
    // next page).
    return failure(
      error.status,
      error.message,
      field,
      error.fieldErrors,
      { title: 'Error', description: createProjectFailed(error.message) },
      coordinates,
    )
  }
  const quoteUrl = `/flight-planner?projectId=${id}&view=quote`
  // A draft just became a pending project: the PROJECT_CREATED toast (not on a re-quote).
  return wasDraft
    ? redirectWithToast(quoteUrl, { title: PROJECT_CREATED, type: 'success' })
    : redirect(quoteUrl)
}
