/**
 * One toast at a time: default duration 5000 ms. Server toasts arrive
 * through the root loader (flash cookie); client code can raise one with useToast().
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useState,
  type ReactNode,
} from 'react'

import { cn } from '../ui/cn.ts'
import { toastReducer, type ToastMessage } from './toast-state.ts'

const TOAST_DURATION_MS = 5000

/** The card and its dot by the toast's type. */
const TOAST_STYLE: Record<ToastMessage['type'], { card: string; dot: string }> = {
  success: { card: 'border-emerald-200 bg-white text-ink-900', dot: 'bg-emerald-500' },
  info: { card: 'border-sky-200 bg-white text-ink-900', dot: 'bg-sky-500' },
  error: { card: 'border-red-200 bg-red-600 text-white', dot: 'bg-white' },
}

const ToastContext = createContext<(toast: Omit<ToastMessage, 'id'> & { id?: string }) => void>(() => {})

export function useToast() {
  return useContext(ToastContext)
}

export function ToastProvider({
  serverToast,
  children,
}: {
  serverToast: ToastMessage | null
  children: ReactNode
}) {
  const [toast, dispatch] = useReducer(toastReducer, serverToast)
  // A new server toast is taken in the render that brings the new loader data (not an effect
  // after it), so it shows with the page it belongs to.
  const [seenServerId, setSeenServerId] = useState(serverToast?.id ?? null)
  if (serverToast && serverToast.id !== seenServerId) {
    setSeenServerId(serverToast.id)
    dispatch({ type: 'show', toast: serverToast })
  }

  useEffect(() => {
    if (!toast) return
    const timer = setTimeout(() => dispatch({ type: 'hide', id: toast.id }), TOAST_DURATION_MS)
    return () => clearTimeout(timer)
  }, [toast])

  const show = useCallback((next: Omit<ToastMessage, 'id'> & { id?: string }) => {
    dispatch({ type: 'show', toast: { ...next, id: next.id ?? Math.random().toString(36).slice(2) } })
  }, [])

  const value = useMemo(() => show, [show])
  return (
    <ToastContext.Provider value={value}>
      {children}
      {/* Where it covers no control: over the site header on a phone (dialog sheets and
          their buttons are at the bottom there), bottom left on wider screens (primary buttons and
          row actions sit on the right). Without JavaScript it fades out on its own and ✕ still
          closes it (a checkbox the CSS reads). */}
      <div
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 top-2 z-[2000] flex justify-center px-2 sm:inset-x-auto sm:bottom-4 sm:left-4 sm:top-auto sm:px-0"
      >
        {toast ? (
          <div key={toast.id} className="toast-auto-hide w-full max-w-sm">
            <input
              type="checkbox"
              id={`toast-close-${toast.id}`}
              className="peer sr-only"
              aria-label="Dismiss notification"
              onChange={() => dispatch({ type: 'hide', id: toast.id })}
            />
            <div
              role={toast.type === 'error' ? 'alert' : 'status'}
              data-testid="toast"
              className={cn(
                'pointer-events-auto w-full max-w-sm rounded-xl border px-4 py-3 shadow-lg peer-checked:hidden peer-focus-visible:ring-2 peer-focus-visible:ring-amber-400',
                TOAST_STYLE[toast.type].card,
              )}
            >
              <div className="flex items-start gap-3">
                <span
                  aria-hidden="true"
                  className={cn('mt-1 h-2.5 w-2.5 shrink-0 rounded-full', TOAST_STYLE[toast.type].dot)}
                />
                <div className="flex-1">
                  <p className="text-sm font-semibold">{toast.title}</p>
                  {toast.description ? (
                    <p className="mt-0.5 text-sm opacity-90">{toast.description}</p>
                  ) : null}
                </div>
                <label
                  htmlFor={`toast-close-${toast.id}`}
                  className="-mr-1 cursor-pointer rounded p-1 text-current opacity-70 hover:opacity-100"
                  title="Dismiss notification"
                >
                  <span aria-hidden="true">✕</span>
                </label>
              </div>
            </div>
          </div>
        ) : null}
      </div>
    </ToastContext.Provider>
  )
}
