import { useNavigation } from '@remix-run/react'

/** True while a navigation submits to `actionPath` (the busy label of a page's main form). */
export function useIsSubmitting(actionPath: string) {
  const navigation = useNavigation()
  return navigation.state !== 'idle' && navigation.formAction?.startsWith(actionPath) === true
}
