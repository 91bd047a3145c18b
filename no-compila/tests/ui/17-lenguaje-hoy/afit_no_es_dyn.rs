// Un trait con `async fn` no es compatible con `dyn`: cada implementación
// devuelve un future de un tipo y un tamaño distintos, y una vtable no puede
// guardar una función que devuelve «un tipo distinto en cada caso».
#[allow(async_fn_in_trait)]
pub trait Almacen {
    async fn lee(&self, clave: u32) -> u64;
}

pub struct Memoria;

impl Almacen for Memoria {
    async fn lee(&self, clave: u32) -> u64 {
        u64::from(clave)
    }
}

fn main() {
    let almacenes: Vec<Box<dyn Almacen>> = vec![Box::new(Memoria)];
    println!("{}", almacenes.len());
}
