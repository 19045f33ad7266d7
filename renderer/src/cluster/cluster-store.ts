// The cluster workspace store the app uses, over the real backend.
import { useStore } from 'zustand';
import { api } from '../api/index.ts';
import { createClusterStore, type ClusterState } from './cluster.ts';
import { appStore } from '../store/app-store.ts';

export const clusterStore = createClusterStore({ api, notify: (m) => appStore.getState().toast('error', m) });

export const useCluster = <T,>(selector: (s: ClusterState) => T): T => useStore(clusterStore, selector);
