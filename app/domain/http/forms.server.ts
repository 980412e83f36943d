/** Helpers for page actions built with conform. */
import { json } from '@remix-run/node'
import type { SubmissionResult } from '@conform-to/react'

/** The action answer for a form that failed validation or a business rule. */
export function formFailure(result: SubmissionResult<string[]>, status = 400) {
  return json({ result }, { status })
}
