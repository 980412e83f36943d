/** The admin dialogs' form actions: parse → service → redirect with a toast, or the form again with an error toast. */
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { json } from '@remix-run/node'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { createToastHeaders, redirectWithToast, type ToastInput } from '#app/domain/http/toast.server.ts'
import type { z } from 'zod'

/** A failed admin form: the conform result for the fields plus the 'Error' toast. */
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

/**
 * Reads `formData` with `schema` and hands the value to `save`. Bad input (or field errors
 * from `check`) → 400 with `failure` as the toast; a `DomainError` from `save` → its status,
 * field errors and message; success → redirect to `closeTo` with the toast `done` returns.
 * Fields named in `hideFields` (passwords) are never sent back to the form.
 */
export async function submitAdminForm<Schema extends z.ZodTypeAny, Saved>(
  formData: FormData,
  {
    schema,
    failure,
    closeTo,
    hideFields = ['password'],
    check,
    save,
    done,
  }: {
    schema: Schema
    failure: string
    closeTo: string
    hideFields?: string[]
    check?: (value: z.output<Schema>) => Record<string, string[]> | null
    save: (value: z.output<Schema>) => Saved | Promise<Saved>
    done: (saved: Saved) => ToastInput
  },
) {
  const submission = parseWithZod(formData, { schema })
  if (submission.status !== 'success') {
    return adminFormFailure(submission.reply({ hideFields }), 400, failure)
  }
  const fieldErrors = check?.(submission.value)
  if (fieldErrors) return adminFormFailure(submission.reply({ fieldErrors, hideFields }), 400, failure)
  try {
    const saved = await save(submission.value)
    return redirectWithToast(closeTo, done(saved))
  } catch (error) {
    if (!isDomainError(error)) throw error
    return adminFormFailure(
      submission.reply({ fieldErrors: error.fieldErrors ?? {}, hideFields }),
      error.status,
      error.message,
    )
  }
}
