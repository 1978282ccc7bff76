/**
 * Mantine's whole stylesheet, in its cascade layer: loaded with every screen but the first ones (router.tsx), which
 * draw with the per-component sheets start.tsx imports.
 */
import '@mantine/core/styles.layer.css';
