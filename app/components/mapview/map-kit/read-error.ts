/** The message of a failed /api call (`{ error, fieldErrors? }`): its first field's, its own, or `fallback`. */
export async function readApiError(response: Response, fallback: string) {
  try {
    const body = (await response.json()) as { error?: string; fieldErrors?: Record<string, string[]> }
    const first = body.fieldErrors ? Object.values(body.fieldErrors)[0]?.[0] : undefined
    return first ?? body.error ?? fallback
  } catch {
    return fallback
  }
}

/** A measure call's failure without a message of its own. */
export const MEASURE_FAILED = 'The measurement failed.'
