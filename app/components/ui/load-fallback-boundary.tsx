/**
 * Shows `fallback` when a lazily loaded part fails to load — a pilot who loses signal before
 * the map's code arrives keeps the page (and its upload queue) with the outline instead of the
 * whole page's error screen. The browser remembers a failed module load for the life of the
 * page, so there is no retry: a reload with signal loads it.
 */
import { Component, type ReactNode } from 'react'

export class LoadFallbackBoundary extends Component<
  { fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  override componentDidCatch(error: unknown) {
    console.warn('[lazy] a part of the page could not load', error)
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children
  }
}
