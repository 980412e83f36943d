/** The admin dialogs' form actions: parse → service → redirect with a toast, or the form again with an error toast. */
import { parseWithZod } from '@conform-to/zod'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { jsonWithErrorToast, redirectWithToast, type ToastInput } from '#app/lib/http/toast.server.ts'
import type { z } from 'zod'

/**
 * Reads `formData` with `schema` and hands the value to `save`. Bad input (or field errors
 * from `check`) → 400 with `failure` as the toast (or what it makes of the field errors); a
 * `DomainError` from `save` → its status, field errors and message (with `messageInForm`, a
 * message without field errors is also shown above the form); success → redirect to `closeTo`
 * with the toast `done` returns. Every error toast is titled `failureTitle`. Fields named in
 * `hideFields` (passwords) are never sent back to the form. One action for every admin
 * create/edit dialog: users, pilots, hubs, drones.
 */
export async function submitAdminForm<Schema extends z.ZodTypeAny, Saved>(
  formData: FormData,
  {
    schema,
    failure,
    failureTitle = 'Error',
    messageInForm = false,
    closeTo,
    hideFields = ['password'],
    check,
    save,
    done,
  }: {
    schema: Schema
    failure: string | ((fieldErrors: Record<string, string[] | null>) => string)
    failureTitle?: string
    messageInForm?: boolean
    closeTo: string
    hideFields?: string[]
    check?: (value: z.output<Schema>) => Record<string, string[]> | null
    save: (value: z.output<Schema>) => Saved | Promise<Saved>
    done: (saved: Saved) => ToastInput
  },
) {
  const submission = parseWithZod(formData, { schema })
  const failed = (fieldErrors: Record<string, string[] | null>) =>
    typeof failure === 'string' ? failure : failure(fieldErrors)
  if (submission.status !== 'success') {
    return jsonWithErrorToast({ result: submission.reply({ hideFields }) }, 400, {
      title: failureTitle,
      description: failed(submission.error ?? {}),
    })
  }
  const fieldErrors = check?.(submission.value)
  if (fieldErrors) {
    return jsonWithErrorToast({ result: submission.reply({ fieldErrors, hideFields }) }, 400, {
      title: failureTitle,
      description: failed(fieldErrors),
    })
  }
  try {
    const saved = await save(submission.value)
    return redirectWithToast(closeTo, done(saved))
  } catch (error) {
    if (!isDomainError(error)) throw error
    const inForm = messageInForm && !error.fieldErrors
    const result = submission.reply({
      fieldErrors: error.fieldErrors ?? {},
      formErrors: inForm ? [error.message] : undefined,
      hideFields,
    })
    return jsonWithErrorToast({ result }, error.status, { title: failureTitle, description: error.message })
  }
}
