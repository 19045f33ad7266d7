/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS hook, loaded by electron-builder with require() */
// electron-builder afterPack hook: flips the Electron fuses of the packaged binary before it is
// signed (electron-builder signs after this hook). Build-time, CommonJS, runs under Node.
//   off: RunAsNode (ELECTRON_RUN_AS_NODE), NODE_OPTIONS / NODE_EXTRA_CA_CERTS, --inspect* flags
//   on:  OnlyLoadAppFromAsar, EmbeddedAsarIntegrityValidation (macOS, Windows), CookieEncryption
// GrantFileProtocolExtraPrivileges stays on: the window loads its UI from file:// (module scripts
// and workers from file:// need it).
const path = require('node:path');

/** The fuse settings, by @electron/fuses FuseV1Options name (exported for tests). */
const FUSES = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  OnlyLoadAppFromAsar: true,
  EnableEmbeddedAsarIntegrityValidation: true,
  EnableCookieEncryption: true,
};

/** The Electron executable inside the packed app directory. */
function electronBinaryPath(context) {
  const platform = context.electronPlatformName;
  const packager = context.packager;
  if (platform === 'darwin' || platform === 'mas') return path.join(context.appOutDir, `${packager.appInfo.productFilename}.app`);
  if (platform === 'win32') return path.join(context.appOutDir, `${packager.appInfo.productFilename}.exe`);
  return path.join(context.appOutDir, packager.executableName);
}

function archName(arch) {
  if (typeof arch === 'string') return arch;
  try {
    return require('builder-util').Arch[arch];
  } catch {
    return String(arch);
  }
}

async function afterPack(context) {
  const { flipFuses, FuseVersion, FuseV1Options } = require('@electron/fuses');
  const config = { version: FuseVersion.V1 };
  for (const [name, value] of Object.entries(FUSES)) {
    if (!(name in FuseV1Options)) throw new Error(`afterPack: @electron/fuses has no fuse ${name}`);
    config[FuseV1Options[name]] = value;
  }
  // Flipping fuses breaks an arm64 macOS binary's ad-hoc signature; re-sign it ad hoc (real signing follows).
  config.resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && archName(context.arch) === 'arm64';
  const binary = electronBinaryPath(context);
  await flipFuses(binary, config);
  console.log(`  • hnsight: fuses flipped on ${path.relative(process.cwd(), binary) || binary}`);
}

module.exports = afterPack;
module.exports.default = afterPack;
module.exports.FUSES = FUSES;
module.exports.electronBinaryPath = electronBinaryPath;
