/** A failed admin form: the conform result for the fields plus the product's 'Error' toast. */
import type { SubmissionResult } from '@conform-to/react'
import { json } from '@remix-run/node'
import { createToastHeaders } from '#app/domain/http/toast.server.ts'

export async function adminFormFailure<R extends SubmissionResult<string[]>>(
  result: R,
  status: number,
  description: string,
  title = 'Error',
) {
  return json(
    { result },
    { status, headers: await createToastHeaders({ type: 'error', title, description }) },
  )
}
