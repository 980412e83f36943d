import { useNavigation } from '@remix-run/react'

type PendingOptions = {
  intent?: string
  formAction?: string
  formMethod?: 'POST' | 'GET' | 'PUT' | 'DELETE'
  state?: 'submitting' | 'loading' | 'non-idle'
  /** Other fields the submission must carry: a value it must equal, or `true` for any value. */
  fields?: Record<string, string | true>
}

/**
 * The form data of the submission under way that matches, or null. Narrow it by the form's
 * `intent` field, other `fields`, and/or the action it posts to (`formAction` matches a prefix,
 * so '/admin' also matches '/admin?tab=users'). `state: 'submitting'` ends as soon as the
 * action has answered, before the next page's data is loaded.
 */
export function usePendingFormData({
  intent,
  formAction,
  formMethod = 'POST',
  state = 'non-idle',
  fields = {},
}: PendingOptions = {}): FormData | null {
  const navigation = useNavigation()
  const inState = state === 'non-idle' ? navigation.state !== 'idle' : navigation.state === state
  if (!inState || !navigation.formMethod || navigation.formMethod.toUpperCase() !== formMethod) return null
  if (formAction && !navigation.formAction?.startsWith(formAction)) return null
  const formData = navigation.formData ?? new FormData()
  if (intent && formData.get('intent') !== intent) return null
  for (const [name, value] of Object.entries(fields))
    if (value === true ? !formData.has(name) : formData.get(name) !== value) return null
  return formData
}

/** True while a matching form submission is under way: the one way to show a busy label. */
export function useIsPending(options: PendingOptions = {}) {
  return usePendingFormData(options) !== null
}
