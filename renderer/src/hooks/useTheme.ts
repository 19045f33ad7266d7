// Applies the resolved theme to <html data-theme>, where the CSS tokens pick it up.
import { useEffect } from 'react';
import { useApp } from '../store/app-store.ts';
import { resolveTheme } from '../store/ui.ts';
import { useSystemDark } from './useSystemDark.ts';

export function useTheme(): 'light' | 'dark' {
  const pref = useApp((s) => s.themePref);
  const systemDark = useSystemDark();
  const theme = resolveTheme(pref, systemDark);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return theme;
}
