// The rearrange game's table (tile-rummy-rearrange): written once its engine is available.
export class RearrangeTable {
  constructor(page) {
    this.page = page;
  }

  render(frame) {
    this.frame = frame;
  }
}
