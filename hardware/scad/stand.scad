// The card stand: a board leaning back, the ledge and slot that hold one 59 x 91 mm card,
// and recesses where the stand's two marker stickers and its empty-stand patch go.
// Every number of the board, the card and the stickers comes from params.scad, which
// `make hardware` generates from coyote_pi/data/markers.toml (the file the reader and the
// renderer read); the numbers below are the mechanical ones only the print needs.
//
// Board coordinates as in markers.toml: u to the right as seen from the table centre,
// v up the leaning face from the foot, w out of the face towards the centre. The stand's
// foot (u = 0, v = 0) is the origin; the board faces -y and leans back towards +y.
// Printed as it stands on the table, turned print_turn_deg on the bed so that the 240 mm
// board fits a 220 x 220 mm bed: no supports (every overhang is 45 degrees or less).
include <params.scad>

board_thickness = 3.2;
recess_depth = 0.6;        // three layers of 0.2 mm: the sticker lies in it, its edge can be felt
recess_clearance = 0.5;    // round each sticker, so a sticker cut on its line drops in
foot_back = 55;            // the feet reach this far behind the board's foot
foot_thickness = 4;
gusset_u = [-110, -35, 35, 110];
gusset_thickness = 4;
foot_width = 12;           // each rib stands on a foot this wide
gusset_height = 70;        // up the board's back
slot_end_wall = 3;         // each end of the slot; the slot is ledge_length less both

// Board coordinates (u, v, w) to the world: v leans back by lean_deg, w faces the centre.
module on_board() {
    multmatrix([[1, 0, 0, 0],
                [0, sin(lean_deg), -cos(lean_deg), 0],
                [0, cos(lean_deg), sin(lean_deg), 0],
                [0, 0, 0, 1]]) children();
}

// A box in board coordinates from (u0, v0, w0) to (u1, v1, w1).
module board_box(u0, v0, w0, u1, v1, w1) {
    on_board() translate([u0, v0, w0]) cube([u1 - u0, v1 - v0, w1 - w0]);
}

// A sticker's recess: its floor the sticker's size plus clearance; its top wall slopes
// at 45 degrees to the face, so its lip is no overhang when the stand is printed upright.
module recess(centre_u, centre_v, side) {
    half = side / 2 + recess_clearance;
    hull() {
        board_box(centre_u - half, centre_v - half, -recess_depth, centre_u + half, centre_v + half, -recess_depth + 0.01);
        board_box(centre_u - half, centre_v - half, 0, centre_u + half, centre_v + half + recess_depth + 0.01, 0.01);
    }
}

module above_table() {
    intersection() {
        children();
        translate([-500, -500, 0]) cube([1000, 1000, 500]);
    }
}

module ledge() {
    u0 = card_centre_u - ledge_length / 2;
    u1 = card_centre_u + ledge_length / 2;
    difference() {
        // Reaches below the foot so that, cut at the table, it stands on the bed.
        board_box(u0, -20, -0.01, u1, card_bottom_v + lip_height, ledge_front);
        board_box(u0 + slot_end_wall, card_bottom_v, -0.02, u1 - slot_end_wall, card_bottom_v + lip_height + 1, slot_width);
    }
}

// A foot starts where the board's face is above its top, so nothing of it shows in front
// of the board.
foot_front = foot_thickness * tan(lean_deg) + 0.5;  // 0.5 mm behind: no edge of it on the face

module foot_strip(u0, u1) {
    translate([u0, foot_front, 0]) cube([u1 - u0, foot_back - foot_front, foot_thickness]);
}

// A rib from the board's back down to the foot's back edge: it keeps the board at its
// lean. Its slope faces up, so it prints without supports.
module gusset(u) {
    hull() {
        board_box(u - gusset_thickness / 2, board_thickness * tan(lean_deg) + 0.01, -board_thickness,
                  u + gusset_thickness / 2, gusset_height, -board_thickness + 0.01);
        foot_strip(u - gusset_thickness / 2, u + gusset_thickness / 2);
    }
    foot_strip(max(-board_width / 2, u - foot_width / 2), min(board_width / 2, u + foot_width / 2));
}

module stand() {
    difference() {
        above_table() union() {
            board_box(-board_width / 2, -20, -board_thickness, board_width / 2, board_height, 0);
            ledge();
        }
        for (r = recesses) recess(r[0], r[1], r[2]);
    }
    for (u = gusset_u) gusset(u);
}

rotate([0, 0, print_turn_deg]) stand();
