// Not part of the core: the entry of dist/node_modules/jimp/index.js: jimp bundled once, required lazily by the image
// worker and media_image_transform (`require('jimp')` from dist/ resolves here).
export * from 'jimp';
