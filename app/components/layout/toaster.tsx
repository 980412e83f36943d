/**
 * One toast at a time (spec section 9): default duration 5000 ms. Server toasts arrive
 * through the root loader (flash cookie); client code can raise one with useToast().
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { cn } from '../ui/cn.ts'

export interface ToastMessage {
  id: string
  title: string
  description?: string
  type: 'success' | 'error' | 'info'
}

export const TOAST_DURATION_MS = 5000

const ToastContext = createContext<(toast: Omit<ToastMessage, 'id'> & { id?: string }) => void>(() => {})

export function useToast() {
  return useContext(ToastContext)
}

export function ToastProvider({ serverToast, children }: { serverToast: ToastMessage | null; children: ReactNode }) {
  const [toast, setToast] = useState<ToastMessage | null>(serverToast)

  useEffect(() => {
    if (serverToast) setToast(serverToast)
  }, [serverToast])

  useEffect(() => {
    if (!toast) return
    const timer = setTimeout(() => setToast(null), TOAST_DURATION_MS)
    return () => clearTimeout(timer)
  }, [toast])

  const show = useCallback((next: Omit<ToastMessage, 'id'> & { id?: string }) => {
    setToast({ ...next, id: next.id ?? Math.random().toString(36).slice(2) })
  }, [])

  const value = useMemo(() => show, [show])
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-[2000] flex justify-center px-4 sm:justify-end">
        {toast ? (
          <div
            key={toast.id}
            role={toast.type === 'error' ? 'alert' : 'status'}
            data-testid="toast"
            className={cn(
              'pointer-events-auto w-full max-w-sm rounded-xl border px-4 py-3 shadow-lg',
              toast.type === 'error'
                ? 'border-red-200 bg-red-600 text-white'
                : toast.type === 'info'
                  ? 'border-sky-200 bg-white text-ink-900'
                  : 'border-emerald-200 bg-white text-ink-900',
            )}
          >
            <div className="flex items-start gap-3">
              <span
                aria-hidden="true"
                className={cn(
                  'mt-1 h-2.5 w-2.5 shrink-0 rounded-full',
                  toast.type === 'error' ? 'bg-white' : toast.type === 'info' ? 'bg-sky-500' : 'bg-emerald-500',
                )}
              />
              <div className="flex-1">
                <p className="text-sm font-semibold">{toast.title}</p>
                {toast.description ? <p className="mt-0.5 text-sm opacity-90">{toast.description}</p> : null}
              </div>
              <button
                type="button"
                onClick={() => setToast(null)}
                className="-mr-1 rounded p-1 text-current opacity-70 hover:opacity-100"
                aria-label="Dismiss notification"
              >
                ✕
              </button>
            </div>
          </div>
        ) : null}
      </div>
    </ToastContext.Provider>
  )
}
