// The parts of Discord's Embedded App SDK the Activity page uses, bundled by
// ../refresh-vendor.sh into ../vendor/discord-sdk.min.js (one ES module).
export { DiscordSDK, DiscordSDKMock } from '@discord/embedded-app-sdk';
