import { useNavigation } from '@remix-run/react'

/**
 * True while a form submission is under way — the one way to show a busy label.
 * Narrow it by the form's `intent` field and/or the action it posts to (`formAction`
 * matches a prefix, so '/admin' also matches '/admin?tab=users'). `state: 'submitting'`
 * ends as soon as the action has answered, before the next page's data is loaded.
 */
export function useIsPending({
  intent,
  formAction,
  formMethod = 'POST',
  state = 'non-idle',
}: {
  intent?: string
  formAction?: string
  formMethod?: 'POST' | 'GET' | 'PUT' | 'DELETE'
  state?: 'submitting' | 'loading' | 'non-idle'
} = {}) {
  const navigation = useNavigation()
  const inState = state === 'non-idle' ? navigation.state !== 'idle' : navigation.state === state
  if (!inState || !navigation.formMethod || navigation.formMethod.toUpperCase() !== formMethod) return false
  if (formAction && !navigation.formAction?.startsWith(formAction)) return false
  if (intent && navigation.formData?.get('intent') !== intent) return false
  return true
}
